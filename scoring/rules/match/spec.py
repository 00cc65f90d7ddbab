"""Match options and their problems: :class:`MatchSpec`, :class:`GameEntry`, the result type.

The typed vocabulary every other match module shares (sides ``"a"``/``"b"``, numbers that
may be halves for the equal-moves draw), and :func:`spec_problems`, the options checked on
their own before any result is looked at. :mod:`scoring.rules.match.check` combines the checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.categories import Group, RoundRule, get_category
from scoring.rules.match.cube import STANDARD_MAX, CubeRules
from scoring.rules.problems.match import MATCH
from scoring.rules.variants import SCORING_TABLES, ScoringTable

Number = int | Fraction
SIDES = ("a", "b")
DRAW = "draw"
DRAW_VALUES: tuple[Fraction, ...] = (Fraction(1), Fraction(1, 2))
"""Part 9: a draw scored 1:1 (Perm long-nardy event) or, usually, ½ each."""


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def format_number(value: Number) -> str:
    """2, 2.5 — scores read the way a referee writes them."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return str(float(value))
    return str(int(value))


def format_score(score: Sequence[Number]) -> str:
    return ":".join(format_number(s) for s in score)


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything agreed before a match that decides which results are possible.

    Exactly one of ``length`` (to N points) and ``fixed_games`` is set.
    ``crawford=None`` means the default: on in a match to N points (Part 9:
    "в матчах правило Кроуфорда применяется практически всегда"), meaningless
    elsewhere. Every other agreed rule is off unless set (Part 9). The cube is
    off by default, so a forgotten option refuses a cube with a clear message
    instead of silently accepting it. ``autodoubles`` is the per-game limit
    (``None``: agreed without a limit). ``max_cube=None`` means 64, or 6 with
    the davé ladder. ``draw`` is what each player gets for a draw (1 or ½;
    ``None``: draws are not scored). ``category``/``round`` tie the match to a
    category's table row; ``organiser_override`` says the organiser's change to
    that row was recorded (see :func:`scoring.rules.match.categories.round_rule`).
    ``first_white`` is who has White in game 1 of a fixed-games match (colours
    alternate). ``start`` is the score the match starts from: penalty points a
    player was given because the opponent came late (:mod:`scoring.rules.match.result_kinds`).
    """

    length: int | None = None
    fixed_games: int | None = None
    scoring: str = "backgammon"
    cube: bool = False
    crawford: bool | None = None
    holland: bool = False
    jacoby: bool = False
    beaver: bool = False
    raccoon: bool = False
    autodoubles: int | None = 0
    max_cube: int | None = None
    dave: bool = False
    draw: Number | None = None
    category: int | str | None = None
    round: int | None = None
    organiser_override: bool = False
    first_white: str = "a"
    start: tuple[Number, Number] = (0, 0)
    #: The match must have a winner (a knockout: the loser leaves); a level score is refused.
    must_decide: bool = False

    @property
    def is_points(self) -> bool:
        return self.length is not None

    def capped(self, score: Sequence[Number]) -> tuple[Number, Number]:
        """``score`` as the match's result keeps it: a match to N is won at N.

        A game won by a gammon or on a high cube carries the winner past N (gnubg's file
        of a match to 5 reads 8:4 after a gammon on a 2-cube at 3:4); the match rules
        stop at N, so 8:4 and 5:4 are the same result (Part 9: «матч до N очков»).
        The loser's score is never above N − 1 in a finished match, so only the
        winner's is capped; a fixed-games match has nothing to cap.
        """
        a, b = score[0], score[1]
        if self.length is None or (a >= self.length) == (b >= self.length):
            return a, b
        return (min(a, self.length), b) if a >= self.length else (a, min(b, self.length))

    def same_result(self, x: Sequence[Number], y: Sequence[Number]) -> bool:
        """Whether two scores are one result once the match rules cap them (8:4 = 5:4 to 5).

        THE comparison of a file's score with a reported or official one: the record
        page, attaching, the bulk upload and the API's check all ask this.
        """
        return self.capped(x) == self.capped(y)

    @property
    def crawford_on(self) -> bool:
        """Crawford matters only in a point match played with the cube."""
        on = True if self.crawford is None else self.crawford
        return bool(on and self.is_points and self.cube)

    @property
    def table(self) -> ScoringTable:
        return SCORING_TABLES[self.scoring]

    @property
    def max_value(self) -> int:
        if self.max_cube is not None:
            return self.max_cube
        return 6 if self.dave else STANDARD_MAX

    def cube_rules(
        self, *, crawford_game: bool = False, holland_trailer: str | None = None
    ) -> CubeRules:
        """The :class:`CubeRules` for one game of this match (for the record replayer too)."""
        return CubeRules(
            enabled=self.cube,
            max_value=self.max_value,
            dave=self.dave,
            beaver=self.beaver,
            raccoon=self.raccoon,
            autodoubles=self.autodoubles,
            crawford_game=crawford_game,
            holland_trailer=holland_trailer,
        )

    @classmethod
    def for_round(cls, rule: RoundRule, **options: Any) -> MatchSpec:
        """A spec from a :class:`~scoring.rules.match.categories.RoundRule` plus other options."""
        return cls(
            length=rule.length,
            cube=rule.cube,
            category=rule.category.number,
            round=rule.round,
            organiser_override=rule.overridden,
            **options,
        )


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One line of a match ledger as the referee reports it."""

    winner: str | None
    kind: str
    cube: int = 1
    dropped: bool = False
    autodoubles: int = 0

    @classmethod
    def draw(cls, cube: int = 1) -> GameEntry:
        return cls(winner=None, kind=DRAW, cube=cube)


@dataclass(frozen=True, slots=True)
class GameLine:
    """What the core made of one game: points, running score and its place in the match.

    ``match_point`` — someone needed one point before this game; ``crawford`` —
    it was the Crawford game (no cube); ``post_crawford`` — a later game;
    ``holland`` — the Holland restriction applied to the trailer (a ledger cannot
    show when a double was made, so this is informational); ``white`` — who had
    White in a fixed-games match.
    """

    number: int
    winner: str | None
    points: tuple[Number, Number]
    score: tuple[Number, Number]
    match_point: bool = False
    crawford: bool = False
    post_crawford: bool = False
    holland: bool = False
    white: str | None = None


@dataclass(frozen=True, slots=True)
class MatchValidation:
    """The verdict on a reported result; ``ok`` only when there is no problem at all."""

    ok: bool
    problems: tuple[Problem, ...]
    score: tuple[Number, Number]
    winner: str | None
    crawford_game: int | None = None
    games: tuple[GameLine, ...] = ()
    decided: bool = False
    #: ``score`` as the match rules cap it (:meth:`MatchSpec.capped`): 5:4 for a file's 8:4.
    capped: tuple[Number, Number] | None = None

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def errors(
        self, language: str = "en", names: Mapping[str, str] | None = None
    ) -> list[dict[str, Any]]:
        """Each problem as ``game``/``code``/``message``; ``names`` (``{"a": "Петров", …}``)
        lets a shell that knows the players say them instead of the side letters."""
        return [
            {"game": p.game, "code": p.code, "message": p.message(language, names)}
            for p in self.problems
        ]

    def as_dict(
        self, language: str = "en", names: Mapping[str, str] | None = None
    ) -> dict[str, Any]:
        """The shape every shell reports (the command's ``--json`` output); ``names`` as in
        :meth:`errors`."""
        return {
            "ok": self.ok,
            "errors": self.errors(language, names),
            "score": [_plain(s) for s in self.score],
            "winner": self.winner,
            "crawford_game": self.crawford_game,
            "capped": [_plain(s) for s in (self.capped or self.score)],
        }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def spec_problems(spec: MatchSpec) -> list[Problem]:
    """Contradictions in the options themselves, before any result is looked at."""
    found: list[Problem] = []
    if (spec.length is None) == (spec.fixed_games is None):
        found.append(MATCH.problem("bad_format"))
    if spec.length is not None and not (_is_int(spec.length) and spec.length >= 1):
        found.append(MATCH.problem("bad_length", value=spec.length))
    if spec.fixed_games is not None and not (_is_int(spec.fixed_games) and spec.fixed_games >= 1):
        found.append(MATCH.problem("bad_fixed_games", value=spec.fixed_games))
    if spec.scoring not in SCORING_TABLES:
        found.append(
            MATCH.problem("bad_scoring", value=spec.scoring, known=", ".join(SCORING_TABLES))
        )
    if spec.jacoby:
        found.append(MATCH.problem("jacoby_in_match"))
    if spec.holland and not spec.crawford_on:
        found.append(MATCH.problem("holland_needs_crawford"))
    if spec.draw is not None:
        if spec.draw not in DRAW_VALUES:
            found.append(MATCH.problem("bad_draw_value", value=_plain(spec.draw)))
        elif spec.is_points:
            found.append(MATCH.problem("draw_needs_fixed_games"))
    rules = spec.cube_rules()
    for problem in rules.problems():
        if spec.cube or problem.code == "match.autodoubles_without_cube":
            found.append(problem)
    found.extend(_category_problems(spec))
    return found


def _category_problems(spec: MatchSpec) -> list[Problem]:
    if spec.category is None or spec.organiser_override:
        return []
    try:
        cat = get_category(spec.category)
    except RuleViolation as exc:
        return list(exc.problems)
    found: list[Problem] = []
    if spec.cube != cat.cube:
        found.append(
            MATCH.problem(
                "category_cube", category=cat.en, category_ru=cat.ru, cube_expected=cat.cube
            )
        )
    if _is_int(spec.round) and spec.round >= 1:
        allowed = [cat.length(spec.round)]
    elif cat.grows:
        allowed = [cat.length(r) for r in range(1, 40)]
    else:
        allowed = [cat.first_length]
    if spec.length not in allowed:
        found.append(
            MATCH.problem(
                "category_length",
                category=cat.en,
                category_ru=cat.ru,
                expected_lengths=allowed[:1] if len(allowed) == 1 else allowed[:2],
                actual_length=spec.length if spec.is_points else None,
                actual_games=None if spec.is_points else spec.fixed_games,
            )
        )
    return found


def _lower_category(spec: MatchSpec) -> dict[str, Any]:
    """Details naming the match's category when it is one of those that never use the cube."""
    if spec.category is None:
        return {}
    try:
        cat = get_category(spec.category)
    except RuleViolation:
        return {}
    if cat.group is Group.LOWER:
        return {"lower_category": True, "category": cat.en, "category_ru": cat.ru}
    return {}
