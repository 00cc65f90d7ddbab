"""One person, one player: who an incoming person may already be, for a person to confirm.

Every way a person comes in — self-registration, the entries import, a club's member
list, the API and the organiser's new-player form — asks this room before a player
is created: :mod:`.matching` (pure: names in any alphabet, ё, transliteration,
swapped given and family names; club, birth year, rating and email as evidence)
compares, :mod:`.services` finds the stored candidates and applies the decision
rule. Nothing here creates, changes or merges a player: the callers create a new
player only when nobody matches or a person said "a new player"; merging two
stored players is ``tournaments.identity`` (it moves entries and rating history).
"""
