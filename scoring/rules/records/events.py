"""What a parsed record is: the :class:`Record` and the events it holds, in playing order.

Both readers produce these — the book's text (:mod:`scoring.rules.records.reader`) and
the .mat files (:mod:`scoring.rules.records.matfile`) — and one replayer
(:mod:`scoring.rules.records.replay`) consumes them, so the types live apart from either.

Why a flat event list rather than a tree of moves: records are linear (alternatives are
kept as text and never replayed) and nothing printed is dropped, commentary included.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.rules.board.position import BLACK, WHITE
from scoring.rules.errors import Problem
from scoring.rules.match.cube import CubeRules
from scoring.rules.records.notation import CubeAction, Ply

SIDES = ("white", "black")


def side_index(side: str) -> int:
    """The board's colour index (``WHITE``/``BLACK``) of a side named in a record."""
    return WHITE if side == "white" else BLACK


def other_side(side: str) -> str:
    """The opponent of ``"white"`` or ``"black"``."""
    return "black" if side == "white" else "white"


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """One side's turn at the board as printed (``ply`` is None when unreadable).

    ``numbering`` overrides the record's numbering for this event (the .mat reader uses
    ``"own"``: each side's own 1…24, bar 25, off 0).
    """

    move: int
    side: str
    text: str
    ply: Ply | None
    line: int = 0
    problem: Problem | None = None
    alternatives: tuple[str, ...] = ()
    numbering: str | None = None


@dataclass(frozen=True, slots=True)
class CubeEvent:
    """A cube mark; ``side`` is None when it comes from commentary (inferred at replay)."""

    actions: tuple[CubeAction, ...]
    side: str | None
    move: int | None
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class CheckpointEvent:
    """A position printed for verification, as ``label -> count`` per side."""

    white: tuple[tuple[str, int], ...]
    black: tuple[tuple[str, int], ...]
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class CommentEvent:
    """Commentary as printed (kept so a record can be printed back whole)."""

    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class ClaimEvent:
    """A result the source states (``Wins 2 points`` in .mat); compared with the replay."""

    side: str
    points: int
    text: str
    line: int = 0


Event = PlayEvent | CubeEvent | CheckpointEvent | CommentEvent | ClaimEvent


@dataclass(slots=True)
class Record:
    """A parsed record: what game, which numbering, who starts, and the events in order."""

    variant: str
    numbering: str
    first: str = "white"
    title: str | None = None
    opening: list[tuple[int, int]] = field(default_factory=list)
    autodoubles: int = 0
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    variant_detected: bool = False
    numbering_detected: bool = False
    cube_rules: CubeRules = field(
        default_factory=lambda: CubeRules(beaver=True, raccoon=True, autodoubles=None)
    )
    game: int | None = None

    @property
    def plays(self) -> list[PlayEvent]:
        return [e for e in self.events if isinstance(e, PlayEvent)]
