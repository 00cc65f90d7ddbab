"""Whole game records as the book prints them (Part 6): the old single module, kept as a map.

Reading, replaying and reporting used to live here; each job now has its own module:

====================================== ================================================
:mod:`scoring.rules.record_events`     :class:`Record` and its events (plays, cube marks,
                                       checkpoints, commentary, stated results)
:mod:`scoring.rules.record_reader`     :func:`parse_record`: text → :class:`Record`
:mod:`scoring.rules.record_header`     the lines before the moves: game, opening roll,
                                       who starts; the numbering the labels reveal
:mod:`scoring.rules.record_cells`      a table line cut into cells; move or prose?
:mod:`scoring.rules.record_commentary` checkpoints and cube marks printed in commentary
:mod:`scoring.rules.record_replay`     :class:`Replayer`, :func:`replay`: the moves on
                                       the rules core, the cube, the game's end
:mod:`scoring.rules.record_checkpoint` a printed checkpoint against the board
:mod:`scoring.rules.record_report`     :class:`ReplayReport`, located ``record.*``
                                       problems, :data:`RECORD_CODES`
:mod:`scoring.rules.record_validate`   :func:`validate_text`: parse and replay at once
:mod:`scoring.rules.record_format`     :func:`format_record`: a record printed back
====================================== ================================================

``from scoring.rules.record import X`` keeps working for every name below.
"""

from __future__ import annotations

from scoring.rules.record_checkpoint import CheckpointComparison, compare_checkpoint
from scoring.rules.record_commentary import commentary_cube, parse_checkpoint
from scoring.rules.record_events import (
    SIDES,
    SIDES_RU,
    SIDES_RU_GEN,
    CheckpointEvent,
    ClaimEvent,
    CommentEvent,
    CubeEvent,
    Event,
    PlayEvent,
    Record,
    other_side,
    side_index,
)
from scoring.rules.record_format import format_record
from scoring.rules.record_header import detect_numbering, detect_variant
from scoring.rules.record_reader import parse_record
from scoring.rules.record_replay import Replayer, replay
from scoring.rules.record_report import (
    RECORD_CODES,
    CheckpointReport,
    RecordResult,
    ReplayReport,
    locate,
    record_problem,
)
from scoring.rules.record_validate import validate_text
from scoring.rules.variants import VARIANTS

__all__ = [
    "RECORD_CODES",
    "SIDES",
    "SIDES_RU",
    "SIDES_RU_GEN",
    "VARIANTS",
    "CheckpointComparison",
    "CheckpointEvent",
    "CheckpointReport",
    "ClaimEvent",
    "CommentEvent",
    "CubeEvent",
    "Event",
    "PlayEvent",
    "Record",
    "RecordResult",
    "ReplayReport",
    "Replayer",
    "commentary_cube",
    "compare_checkpoint",
    "detect_numbering",
    "detect_variant",
    "format_record",
    "locate",
    "other_side",
    "parse_checkpoint",
    "parse_record",
    "record_problem",
    "replay",
    "side_index",
    "validate_text",
]
