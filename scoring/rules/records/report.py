"""What a replay reports: located problems, checkpoint outcomes, the result of the game.

Every finding of the record layer is a ``record.<code>`` :class:`Problem` (words in
:mod:`scoring.rules.problems.record`) placed at its move, side and printed text, so a
shell — the ``validate_record`` command, the admin form, the API — can show where a
record goes wrong without knowing how it was read or replayed. The types live apart
from the replayer because the .mat reader (:mod:`scoring.rules.records.matfile`) builds them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.board.position import Position
from scoring.rules.errors import Problem
from scoring.rules.problems.record import RECORD


def record_problem(
    code: str,
    *,
    move: int | None = None,
    side: str | None = None,
    text: str | None = None,
    game: int | None = None,
    **details: Any,
) -> Problem:
    """The ``record.<code>`` problem at a place in a record (words in :mod:`scoring.rules.problems.record`)."""
    return RECORD.problem(code, move=move, side=side, game=game, text=text, **details)


def locate(problem: Problem, *, move: int | None, side: str | None, text: str | None) -> Problem:
    """Attach the record position to a problem raised by the rules core (which has none)."""
    return replace(problem, move=move, side=side, text=text)


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    """One checkpoint: after which move it stands, whether it matched, and what differs.

    ``diff`` is ``{"white": {label: {"expected": n, "actual": m}}, "black": {...}}`` with
    only the differing points, labelled in the record's numbering.
    """

    move: int | None
    side: str | None
    ok: bool
    diff: dict[str, dict[str, dict[str, int]]]
    text: str = ""
    line: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"move": self.move, "side": self.side, "ok": self.ok, "diff": self.diff}


@dataclass(frozen=True, slots=True)
class RecordResult:
    """How the game ended: winner, kind (a key of the scoring table), cube and points."""

    winner: str
    kind: str
    cube: int
    points: int
    by_drop: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "kind": self.kind, "cube": self.cube, "points": self.points}


@dataclass(slots=True)
class ReplayReport:
    """Everything the replay found; ``ok`` when there is no error and every checkpoint holds."""

    variant: str
    numbering: str
    errors: list[Problem]
    checkpoints: list[CheckpointReport]
    result: RecordResult | None
    position: Position
    plays: int = 0
    positions: list[Position] = field(default_factory=list)
    #: Notes: findings that leave the record correct (an illegal printed alternative).
    notes: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and all(c.ok for c in self.checkpoints)

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """The JSON shape of ``manage.py validate_record --json``."""
        return {
            "ok": self.ok,
            "variant": self.variant,
            "errors": [
                {
                    "move": p.move,
                    "side": p.side,
                    "code": p.code,
                    "message": p.message(language),
                }
                for p in self.errors
            ],
            "notes": [
                {"move": p.move, "side": p.side, "code": p.code, "message": p.message(language)}
                for p in self.notes
            ],
            "checkpoints": [c.as_dict() for c in self.checkpoints],
            "result": self.result.as_dict() if self.result else None,
        }
