"""The live board: a match recorded step by step on a phone, shown as it is played.

``models`` (a recording and its numbered steps), ``services`` (the one place a step is
checked by the rules core, :mod:`scoring.rules.records.live`, ordered, deduplicated and stored;
the end of the match attaches the record), ``views``/``urls`` (the recorder's page under
a private link or an account, the public board, the hall's feature slot, the JSON API
with ETags), ``problems`` (``live.*`` lives in the rules core's catalogue).
"""
