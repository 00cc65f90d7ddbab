"""What the Swiss generator is given and what it gives back — plain data only.

The caller (Django manager, TRF command, benchmark) computes each player's
standing and history; the generator never reads a database, so the same input
always gives the same draft and a draft can be re-checked later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.rules.errors import Problem
from tournaments.pairing.problems import OPTIONS
from tournaments.pairing.types import Bye, Pairing, PlayerId

ACTIVE = "active"
WITHDRAWN = "withdrawn"
ABSENT = "absent"  # known absence for this round only: not paired, no points
HALF_BYE = "half_bye"  # requested half-point bye for this round
STATUSES = (ACTIVE, WITHDRAWN, ABSENT, HALF_BYE)

FLOAT_DOWN = "down"
FLOAT_UP = "up"

SCORE_MATCH_WINS = "match_wins"
SCORE_GAME_POINTS = "game_points"

FIRST_ROUND_ADJACENT = "adjacent"  # the book: 1–2, 3–4, 5–6, …
FIRST_ROUND_HALVES = "top_vs_bottom"  # 1 v n/2+1, 2 v n/2+2, …

SEED_DRAW_NUMBER = "draw_number"
SEED_RATING = "rating"

SCORES = (SCORE_MATCH_WINS, SCORE_GAME_POINTS)
FIRST_ROUND_RULES = (FIRST_ROUND_ADJACENT, FIRST_ROUND_HALVES)
SEED_BY = (SEED_DRAW_NUMBER, SEED_RATING)


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player's standing before the round, and the history the rules look at.

    ``floats`` and ``colours`` hold one entry per past round (``"down"``/``"up"``/
    ``None`` and ``"w"``/``"b"``/``None``); only the tail matters to the rules,
    but keeping the whole history lets the UI show it. ``bye_rounds`` lists the
    rounds in which the pairing (not the player's request) gave this player a bye.
    """

    id: PlayerId
    draw_number: int
    rating: int = 0
    match_points: float = 0.0
    game_points: float = 0.0
    opponents: tuple[PlayerId, ...] = ()
    bye_rounds: tuple[int, ...] = ()
    floats: tuple[str | None, ...] = ()
    colours: tuple[str | None, ...] = ()
    status: str = ACTIVE
    section: str = ""

    @property
    def last_float(self) -> str | None:
        return self.floats[-1] if self.floats else None


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Tournament options that change the draw (each one a choice the book leaves open)."""

    score: str = SCORE_MATCH_WINS
    first_round: str = FIRST_ROUND_ADJACENT
    seed_by: str = SEED_DRAW_NUMBER
    bye_points: float = 1.0
    half_bye_points: float = 0.5
    alternate_colours: bool = False
    allow_rematches: bool = False
    repair_limit: int = 400  # largest group re-ordered by the exact preference pass
    #: Read by the manager, not the matching: players of one club kept apart in rounds 1..K,
    #: and the points a late entry gets for each round missed (FIDE C.04.2: 0 unless the
    #: regulations say otherwise; ½ per missed round is the common alternative).
    club_apart_rounds: int = 0
    late_entry_points: float = 0.0

    def problems(self) -> list[Problem]:
        """Every invalid option, so a settings form can show them all at once."""
        out: list[Problem] = []

        def bad(name: str, value: object, expected: str, **more: object) -> None:
            out.append(
                OPTIONS.problem(
                    "invalid", system="swiss", option=name, value=value, expected=expected, **more
                )
            )

        if self.score not in SCORES:
            bad("score", self.score, "choice", allowed=list(SCORES))
        if self.first_round not in FIRST_ROUND_RULES:
            bad("first_round", self.first_round, "choice", allowed=list(FIRST_ROUND_RULES))
        if self.seed_by not in SEED_BY:
            bad("seed_by", self.seed_by, "choice", allowed=list(SEED_BY))
        if not 0 <= self.bye_points <= 1e6:
            bad("bye_points", self.bye_points, "number")
        if not 0 <= self.half_bye_points <= 1e6:
            bad("half_bye_points", self.half_bye_points, "number")
        if self.club_apart_rounds < 0:
            bad("club_apart_rounds", self.club_apart_rounds, "integer", minimum=0)
        if not 0 <= self.late_entry_points <= 1:
            bad("late_entry_points", self.late_entry_points, "number")
        if self.repair_limit < 2:
            bad("repair_limit", self.repair_limit, "integer", minimum=2)
        return out


@dataclass(frozen=True, slots=True)
class PairingInput:
    """Everything the Swiss generator needs to pair ``round_number``.

    ``forbidden_pairs`` are pairs of player ids that must not meet this round
    (the director's choice, e.g. members of one family or club); they are an
    absolute rule exactly like a rematch. Pairs naming a player who is not in
    the round are ignored only if that player is known but not playing —
    unknown ids are an input problem.
    """

    round_number: int
    players: tuple[SwissPlayer, ...]
    options: SwissOptions = field(default_factory=SwissOptions)
    forbidden_pairs: frozenset[frozenset[PlayerId]] = frozenset()


@dataclass(frozen=True, slots=True)
class ScoreGroupReport:
    """One score group as the organiser sees it in the explanation panel."""

    section: str
    score: float
    players: tuple[PlayerId, ...]
    floated_in: tuple[PlayerId, ...]
    floated_out: tuple[PlayerId, ...]


OK = "ok"
NO_REMATCH_FREE = "no_rematch_free"
INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class SwissResult:
    """A draft round.

    ``status`` is ``ok``; ``no_rematch_free`` when the rules cannot be met and the
    pairings are only a proposal with the fewest rematches (flagged per table),
    waiting for the organiser's decision; or ``invalid`` when the input itself is
    wrong (see ``problems``; no pairings then).
    """

    round_number: int
    status: str
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...]
    groups: tuple[ScoreGroupReport, ...] = ()
    notes: tuple[Problem, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == OK

    @property
    def pairing_bye(self) -> PlayerId | None:
        for bye in self.byes:
            if bye.kind == "pairing":
                return bye.player
        return None

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """JSON-ready view for the API and the organiser's draft screen."""
        return {
            "round": self.round_number,
            "status": self.status,
            "pairings": [
                {
                    "table": p.table,
                    "a": p.a,
                    "b": p.b,
                    "white": p.white,
                    "section": p.section,
                    "rematch": p.rematch,
                    "notes": [n.as_dict(language) for n in p.notes],
                }
                for p in self.pairings
            ],
            "byes": [
                {
                    "player": b.player,
                    "kind": b.kind,
                    "points": b.points,
                    "section": b.section,
                    "notes": [n.as_dict(language) for n in b.notes],
                }
                for b in self.byes
            ],
            "groups": [
                {
                    "section": g.section,
                    "score": g.score,
                    "players": list(g.players),
                    "floated_in": list(g.floated_in),
                    "floated_out": list(g.floated_out),
                }
                for g in self.groups
            ],
            "notes": [n.as_dict(language) for n in self.notes],
            "problems": [p.as_dict(language) for p in self.problems],
        }
