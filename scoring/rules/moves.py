"""Legal plays and the check of a printed play: the old single entry point, kept as a map.

Generation and diagnosis used to live in this one module; each job now has its own
(python-chess style: a position knows its legal plays, small modules with one job):

=================================== ====================================================
:mod:`scoring.rules.steps`          :class:`Step`, :class:`Play`, the dice, shared tables
:mod:`scoring.rules.legal`          :func:`legal_plays`, :func:`legal_end_positions`,
                                    ``position.legal_plays(dice)``
:mod:`scoring.rules.generate_short` the backgammon-family kernels (the measured hot path)
:mod:`scoring.rules.generate_general` the general search: long nardy, Caucasian, the
                                    exact bear-off
:mod:`scoring.rules.bear_off`       the book's exact bear-off rule, said once
:mod:`scoring.rules.play_check`     :func:`check_play`: why a printed play is illegal
:mod:`scoring.rules.unchecked`      :func:`play_unchecked`: move checkers as printed
=================================== ====================================================

``from scoring.rules.moves import X`` keeps working for every name below.
"""

from __future__ import annotations

from scoring.rules.generate_general import _gen_general
from scoring.rules.generate_short import _gen_short
from scoring.rules.legal import (
    has_legal_move,
    legal_end_positions,
    legal_plays,
    max_dice_playable,
)
from scoring.rules.play_check import PROBLEM_CODES, PlayCheck, check_play
from scoring.rules.steps import Play, Step, board_key, dice_list
from scoring.rules.unchecked import UncheckedPlay, apply_steps_unchecked, play_unchecked

__all__ = [
    "PROBLEM_CODES",
    "Play",
    "PlayCheck",
    "Step",
    "UncheckedPlay",
    "_gen_general",
    "_gen_short",
    "apply_steps_unchecked",
    "board_key",
    "check_play",
    "dice_list",
    "has_legal_move",
    "legal_end_positions",
    "legal_plays",
    "max_dice_playable",
    "play_unchecked",
]
