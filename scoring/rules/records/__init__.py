"""Game records: the book's notation (ch7, Part 6) and GNU Backgammon's ``.mat``, read, replayed, printed.

One reader for the web and the command line: :mod:`.reader` turns a book-style text into a
:class:`~scoring.rules.records.events.Record` (cut into :mod:`.cells`, its :mod:`.header`
and :mod:`.commentary`; one side's cell is :mod:`.notation`), :mod:`.matfile` reads and
writes ``.mat`` files into the same events, :mod:`.replay` walks them on the board (with
:mod:`.checkpoint`) and says what it found in a :mod:`.report`; :mod:`.validate` is the
one call a shell makes, :mod:`.format` prints a record back. :mod:`.play_notation` reads and
writes one play against a position (like SAN). The survey of the book's conventions is
``NOTATION.md`` beside these modules.
"""
