"""The board: positions, variants' move rules, legal plays, why a play is illegal, GNU Backgammon IDs.

Modules, one concern each: :mod:`.position` (the immutable :class:`Position`, point labels,
pip counts, the result of a finished game), :mod:`.steps` (a step, a play, the dice),
:mod:`.legal` (every legal play; the searches behind it live in :mod:`.generate`),
:mod:`.bear_off` (the book's exact bear-off), :mod:`.play_check` (why a printed play is
illegal), :mod:`.unchecked` (moving checkers as printed, past a misprint) and :mod:`.posid`
(Position and Match IDs). Nothing here reads text: the book's notation is :mod:`scoring.rules.records`.
"""
