"""Match results: the options a match is played under, and checking what a referee reports.

A result reaches us either game by game (a *ledger*) or as a bare final score
(a *summary*, "5:3"). :func:`validate_match` is the one entry point for every
shell (model validation, admin, API, the ``validate_match`` command), so a
result is accepted or refused for the same reason everywhere.

Sources: Part 9 (match to N points, fixed number of games, Crawford almost
always on in matches, agreed rules are off unless agreed, the equal-moves draw
1:1 in Perm or usually ½, the crosstable "Результаты матчей"), the glossary
(Crawford, post-Crawford, Holland, Jacoby "обычно не применяется в матчах"),
ch10 (cube values, automatic doubles) and ch14 (davé ladder, see
:mod:`scoring.rules.cube`). Game values come from
:data:`scoring.rules.variants.SCORING_TABLES`.

Conventions: sides are ``"a"`` and ``"b"``; a draw is ``winner=None,
kind="draw"``; ``cube`` is the stake when the game ended — after a pass, the
value before the refused offer, i.e. exactly what the winner scores; game
numbers in problems are 1-based.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from scoring.rules.categories import Group, RoundRule, get_category
from scoring.rules.cube import STANDARD_MAX, CubeRules
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match_problems import MATCH
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


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------


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
    that row was recorded (see :func:`scoring.rules.categories.round_rule`).
    ``first_white`` is who has White in game 1 of a fixed-games match (colours
    alternate).
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

    @property
    def is_points(self) -> bool:
        return self.length is not None

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
        """A spec from a :class:`~scoring.rules.categories.RoundRule` plus other options."""
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

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def errors(self, language: str = "en") -> list[dict[str, Any]]:
        return [
            {"game": p.game, "code": p.code, "message": p.message(language)} for p in self.problems
        ]

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """The shape every shell reports (the command's ``--json`` output)."""
        return {
            "ok": self.ok,
            "errors": self.errors(language),
            "score": [_plain(s) for s in self.score],
            "winner": self.winner,
            "crawford_game": self.crawford_game,
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


# --------------------------------------------------------------------------
# Ledger
# --------------------------------------------------------------------------


@dataclass(slots=True)
class _Running:
    score: list[Number] = field(default_factory=lambda: [0, 0])
    crawford_game: int | None = None
    decided_after: int | None = None
    lines: list[GameLine] = field(default_factory=list)


def _cube_usage(entry: GameEntry) -> str | None:
    """How a game shows the cube was used (a ``usage`` key of the catalogue); None if not."""
    if _is_int(entry.cube) and entry.cube > 1:
        return "stake"
    if entry.dropped is True:
        return "dropped"
    if _is_int(entry.autodoubles) and entry.autodoubles > 0:
        return "autodouble"
    return None


def _check_entry(
    spec: MatchSpec, number: int, entry: GameEntry, crawford: bool, leaders: list[str]
) -> list[Problem]:
    """Every reason one ledger line is impossible under the options."""
    table = spec.table
    kinds = [k for k, _ in table.kinds]
    found: list[Problem] = []
    is_draw = entry.kind == DRAW
    if is_draw:
        if entry.winner is not None:
            found.append(MATCH.problem("bad_winner", game=number, value=entry.winner))
        if spec.draw is None:
            found.append(MATCH.problem("draw_not_allowed", game=number))
    else:
        if entry.winner not in SIDES:
            found.append(MATCH.problem("bad_winner", game=number, value=entry.winner))
        if entry.kind not in kinds:
            found.append(
                MATCH.problem(
                    "bad_kind",
                    game=number,
                    value=entry.kind,
                    system=table.key,
                    known=", ".join(kinds),
                )
            )
    if not isinstance(entry.dropped, bool):
        found.append(MATCH.problem("bad_dropped", game=number, value=entry.dropped))
    rules = spec.cube_rules(crawford_game=crawford)
    cube_ok = rules.is_cube_value(entry.cube)
    if not cube_ok:
        legal = ", ".join(str(v) for v in spec.cube_rules().legal_values()) if spec.cube else "1"
        found.append(MATCH.problem("cube_not_legal", game=number, value=entry.cube, legal=legal))
    autodoubles_ok = _is_int(entry.autodoubles) and entry.autodoubles >= 0
    if not autodoubles_ok:
        found.append(MATCH.problem("bad_autodoubles", game=number, value=entry.autodoubles))
    usage = _cube_usage(entry)
    if not spec.cube:
        if usage is not None and (entry.dropped is True or (cube_ok and entry.cube > 1)):
            found.append(
                MATCH.problem(
                    "cube_off", game=number, usage=usage, value=entry.cube, **_lower_category(spec)
                )
            )
        if autodoubles_ok and entry.autodoubles > 0:
            found.append(MATCH.problem("autodoubles_without_cube", game=number))
        return found
    if crawford and usage is not None:
        found.append(
            MATCH.problem(
                "cube_in_crawford", game=number, leaders=leaders, usage=usage, value=entry.cube
            )
        )
        return found
    if cube_ok and entry.cube > rules.max_value:
        found.append(
            MATCH.problem("cube_above_max", game=number, value=entry.cube, max=rules.max_value)
        )
    if autodoubles_ok and entry.autodoubles > 0:
        if spec.dave:
            found.append(MATCH.problem("autodouble_in_dave", game=number))
        elif spec.autodoubles is not None and entry.autodoubles > spec.autodoubles:
            found.append(
                MATCH.problem(
                    "autodoubles_exceeded",
                    game=number,
                    count=entry.autodoubles,
                    limit=spec.autodoubles,
                )
            )
        elif cube_ok:
            floor = 2**entry.autodoubles
            if entry.cube < floor:
                found.append(
                    MATCH.problem(
                        "autodoubles_cube_mismatch",
                        game=number,
                        count=entry.autodoubles,
                        floor=floor,
                        value=entry.cube,
                    )
                )
    if (
        entry.dropped is True
        and cube_ok
        and entry.cube <= rules.max_value
        and rules.next_value(entry.cube) > rules.max_value
    ):
        found.append(MATCH.problem("drop_at_max", game=number, value=entry.cube))
    if entry.dropped is True and (is_draw or (entry.kind in kinds and entry.kind != kinds[0])):
        found.append(
            MATCH.problem(
                "dropped_kind", game=number, value=entry.kind, single=kinds[0]
            )
        )
    return found


def _entry_points(spec: MatchSpec, entry: GameEntry) -> tuple[Number, Number]:
    """Points for (a, b); an unreadable line scores nothing so the rest can still be checked."""
    stake = entry.cube if _is_int(entry.cube) and entry.cube >= 1 else 1
    if entry.kind == DRAW:
        each = Fraction(spec.draw) * stake if spec.draw in DRAW_VALUES else Fraction(0)
        value: Number = int(each) if each.denominator == 1 else each
        return value, value
    values = dict(spec.table.kinds)
    if entry.winner not in SIDES or entry.kind not in values:
        return 0, 0
    won = stake if entry.dropped is True else values[entry.kind] * stake
    return (won, 0) if entry.winner == "a" else (0, won)


def _leaders(score: Sequence[Number], length: int) -> list[str]:
    """The sides one point from winning the match (who makes this the Crawford game)."""
    return [s for s, pts in zip(SIDES, score, strict=True) if pts == length - 1]


def _validate_ledger(spec: MatchSpec, games: Sequence[GameEntry]) -> tuple[_Running, list[Problem]]:
    run = _Running()
    found: list[Problem] = []
    length = spec.length if _is_int(spec.length) else None
    fixed = spec.fixed_games if _is_int(spec.fixed_games) else None
    for number, entry in enumerate(games, start=1):
        if fixed is not None and number > fixed:
            found.append(MATCH.problem("too_many_games", game=number, fixed=fixed))
            break
        if run.decided_after is not None:
            winner = _winner_of(spec, run.score)
            found.append(
                MATCH.problem(
                    "game_after_end",
                    game=number,
                    score=format_score(run.score),
                    winner=winner,
                    last=run.decided_after,
                )
            )
            break
        before = tuple(run.score)
        match_point = length is not None and length > 1 and (length - 1) in before
        crawford = (
            spec.crawford_on and match_point and run.crawford_game is None and length is not None
        )
        if crawford:
            run.crawford_game = number
        post = run.crawford_game is not None and number > run.crawford_game
        leaders = _leaders(before, length) if length is not None else []
        found.extend(_check_entry(spec, number, entry, crawford, leaders))
        pa, pb = _entry_points(spec, entry)
        run.score = [run.score[0] + pa, run.score[1] + pb]
        white = None
        if fixed is not None:
            other = "b" if spec.first_white == "a" else "a"
            white = spec.first_white if number % 2 == 1 else other
        run.lines.append(
            GameLine(
                number=number,
                winner=entry.winner if entry.kind != DRAW else None,
                points=(pa, pb),
                score=(run.score[0], run.score[1]),
                match_point=match_point,
                crawford=crawford,
                post_crawford=post,
                holland=post and spec.holland,
                white=white,
            )
        )
        if (length is not None and max(run.score) >= length) or (
            fixed is not None and number == fixed
        ):
            run.decided_after = number
    if run.decided_after is None and (length is not None or fixed is not None):
        found.append(
            MATCH.problem(
                "match_unfinished",
                unfinished="ledger" if length is not None else "games",
                games=len(games),
                score=format_score(run.score),
                length=length,
                fixed=fixed,
            )
        )
    return run, found


def _winner_of(spec: MatchSpec, score: Sequence[Number]) -> str | None:
    a, b = score
    if spec.is_points and _is_int(spec.length):
        if a >= spec.length > b:
            return "a"
        if b >= spec.length > a:
            return "b"
        return None
    if a == b:
        return None
    return "a" if a > b else "b"


# --------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------


def game_values(spec: MatchSpec, *, cube: bool | None = None) -> frozenset[int]:
    """Every number of points one won game can bring under the options.

    With the cube: any game value times any legal stake (a pass scores the stake
    before the offer, which is a single game at that stake, already included).
    """
    use_cube = spec.cube if cube is None else cube
    return _game_values(spec.scoring, use_cube, spec.dave, spec.max_value)


@lru_cache(maxsize=256)
def _game_values(scoring: str, cube: bool, dave: bool, max_value: int) -> frozenset[int]:
    kinds = {v for _, v in SCORING_TABLES[scoring].kinds}
    if not cube:
        return frozenset(kinds)
    stakes = CubeRules(max_value=max_value, dave=dave).legal_values()
    return frozenset(k * c for k in kinds for c in stakes)


def last_game_values(spec: MatchSpec, winner_before: int, loser: int) -> frozenset[int]:
    """What the deciding game could be worth, given the score before it.

    Only the Crawford rule narrows it: if someone stands at match point, the last
    game is the Crawford game (no cube) unless a Crawford game was already played
    without ending the match — which needs the player *not* at match point to
    have won it, i.e. to have at least 1 point.
    """
    length = spec.length
    assert length is not None
    if not spec.crawford_on or length == 1:
        return game_values(spec)
    mp = length - 1
    if winner_before != mp and loser != mp:
        return game_values(spec)
    post_possible = (loser == mp and winner_before >= 1) or (winner_before == mp and loser >= 1)
    return game_values(spec) if post_possible else game_values(spec, cube=False)


def _score_numbers(final: Any, allow_halves: bool) -> tuple[Number, Number] | None:
    if not isinstance(final, (list, tuple)) or len(final) != 2:
        return None
    out: list[Number] = []
    for value in final:
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            return None
        try:
            number = Fraction(value)
        except (ValueError, OverflowError):
            return None
        if number < 0:
            return None
        if number.denominator != 1 and not (allow_halves and number.denominator == 2):
            return None
        out.append(int(number) if number.denominator == 1 else number)
    return out[0], out[1]


def _check_points_summary(spec: MatchSpec, score: tuple[Number, Number]) -> list[Problem]:
    length = spec.length
    assert _is_int(length)
    text = format_score(score)
    reached = [s >= length for s in score]
    if not any(reached):
        return [MATCH.problem("match_unfinished", unfinished="final", score=text, length=length)]
    if all(reached):
        return [MATCH.problem("final_both_reached", length=length, score=text)]
    w_index = 0 if reached[0] else 1
    w, loser = int(score[w_index]), int(score[1 - w_index])
    for before in range(length):
        if w - before in last_game_values(spec, before, loser):
            return []
    biggest = max(max(last_game_values(spec, b, loser)) for b in range(length))
    need = w - (length - 1)
    values = sorted(game_values(spec))
    return [
        MATCH.problem(
            "final_jump_impossible",
            score=text,
            length=length,
            winner=SIDES[w_index],
            need=need,
            max=biggest,
            allowed_values=values if len(values) <= 12 else [],
        )
    ]


def _sums_of(values: frozenset[int], games: int, cap: int) -> list[int]:
    """sums[n] = bit set of totals reachable by exactly n won games, each worth one of ``values``.

    Bit sets as Python ints keep this linear in the number of games even when a
    cube makes single games worth hundreds of points.
    """
    keep = (1 << (cap + 1)) - 1
    sums = [1]
    for _ in range(games):
        previous, current = sums[-1], 0
        for v in values:
            current |= previous << v
        sums.append(current & keep)
    return sums


def _check_fixed_summary(spec: MatchSpec, score: tuple[Number, Number]) -> list[Problem]:
    fixed = spec.fixed_games
    assert _is_int(fixed)
    values = game_values(spec)
    draw = Fraction(spec.draw) if spec.draw in DRAW_VALUES else None
    x, y = (Fraction(s) for s in score)
    cap = int(max(x, y))
    sums = _sums_of(values, fixed, cap)
    for draws in range(0, fixed + 1 if draw is not None else 1):
        rest_a = x - draws * draw if draw is not None else x
        rest_b = y - draws * draw if draw is not None else y
        if rest_a < 0 or rest_b < 0 or rest_a.denominator != 1 or rest_b.denominator != 1:
            continue
        for wins_a in range(fixed - draws + 1):
            wins_b = fixed - draws - wins_a
            if sums[wins_a] >> int(rest_a) & 1 and sums[wins_b] >> int(rest_b) & 1:
                return []
    return [
        MATCH.problem(
            "final_total_impossible",
            score=format_score(score),
            fixed=fixed,
            values=sorted(values),
            draw=format_number(draw) if draw is not None else None,
            most=max(values) * fixed,
        )
    ]


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def validate_match(
    spec: MatchSpec,
    games: Sequence[GameEntry] | None = None,
    final: Sequence[Number] | None = None,
) -> MatchValidation:
    """Check a match result — its games, its final score, or both — against its options.

    With games, the ledger is authoritative: every game is checked, the score is
    summed, the Crawford game marked, and a stated final score must equal the
    sum. With only a final score, the check is one of plausibility: could some
    legal sequence of games under these options end exactly so?
    """
    problems = spec_problems(spec)
    if games is None and final is None:
        problems.append(MATCH.problem("nothing_to_check"))
    structural = any(
        p.code
        in {"match.bad_format", "match.bad_length", "match.bad_fixed_games", "match.bad_scoring",
            "match.bad_max_cube"}
        for p in problems
    )
    if structural:
        return MatchValidation(False, tuple(problems), (0, 0), None)
    halves = spec.draw == Fraction(1, 2) and not spec.is_points
    stated = None
    if final is not None:
        stated = _score_numbers(final, halves)
        if stated is None:
            problems.append(
                MATCH.problem(
                    "bad_score",
                    value=_plain_seq(final),
                    halves=halves,
                )
            )
    if games is not None:
        run, found = _validate_ledger(spec, list(games))
        problems.extend(found)
        score = (run.score[0], run.score[1])
        if stated is not None and tuple(Fraction(s) for s in stated) != tuple(
            Fraction(s) for s in score
        ):
            problems.append(
                MATCH.problem(
                    "final_mismatch", stated=format_score(stated), ledger=format_score(score)
                )
            )
        decided = run.decided_after is not None
        return MatchValidation(
            ok=not problems,
            problems=tuple(problems),
            score=score,
            winner=_winner_of(spec, score) if decided else None,
            crawford_game=run.crawford_game,
            games=tuple(run.lines),
            decided=decided,
        )
    if stated is None:
        return MatchValidation(False, tuple(problems), (0, 0), None)
    if spec.is_points:
        problems.extend(_check_points_summary(spec, stated))
    else:
        problems.extend(_check_fixed_summary(spec, stated))
    finished = not any(p.code in {"match.match_unfinished", "match.final_both_reached"} for p in problems)
    return MatchValidation(
        ok=not problems,
        problems=tuple(problems),
        score=stated,
        winner=_winner_of(spec, stated) if finished else None,
        decided=finished,
    )


def _plain_seq(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Reading untrusted input (JSON files, API bodies)
# --------------------------------------------------------------------------

_BOOL_KEYS = ("cube", "holland", "jacoby", "beaver", "raccoon", "dave", "organiser_override")
_SPEC_KEYS = {
    "length",
    "fixed_games",
    "scoring",
    "crawford",
    "autodoubles",
    "max_cube",
    "draw",
    "category",
    "round",
    "first_white",
    *_BOOL_KEYS,
}
_TOP_KEYS = _SPEC_KEYS | {"games", "final"}
_GAME_KEYS = {"winner", "kind", "cube", "dropped", "autodoubles"}


@dataclass(frozen=True, slots=True)
class MatchInput:
    spec: MatchSpec
    games: tuple[GameEntry, ...] | None
    final: tuple[Number, Number] | None


def _input_problem(where: str, expected: str, game: int | None = None, **details: Any) -> Problem:
    """``field: expected …, got …`` — ``expected`` is a key of the catalogue's input table.

    A game's field is named without the game (``cube``, not ``games[2].cube``): the place
    prefix already says "Game 2: ".
    """
    return MATCH.problem("bad_input", game=game, field=where, expected_input=expected, **details)


def parse_match_input(data: Any) -> MatchInput:
    """Turn a decoded JSON object into typed input, or raise with every field problem.

    Only types and shapes are checked here; whether the values make sense under
    the rules is :func:`validate_match`'s job, so the messages stay in one place.
    Unknown keys are refused so that a misspelt option is not silently ignored.
    """
    if not isinstance(data, Mapping):
        raise RuleViolation(
            _input_problem("input", "object")
        )
    bad: list[Problem] = []
    for key in sorted(set(data) - _TOP_KEYS):
        bad.append(
            _input_problem(str(key), "known_option", known=", ".join(sorted(_TOP_KEYS)))
        )
    kwargs: dict[str, Any] = {}

    def want(key: str, ok: bool, expected: str) -> None:
        if key in data:
            if ok:
                kwargs[key] = data[key]
            else:
                bad.append(_input_problem(key, expected, got=repr(data[key])))

    def int_or_null(v: Any) -> bool:
        return v is None or _is_int(v)

    for key in ("length", "fixed_games", "max_cube", "round"):
        want(key, int_or_null(data.get(key)), "int_or_null")
    want("autodoubles", int_or_null(data.get("autodoubles")), "limit")
    want("scoring", isinstance(data.get("scoring"), str), "scoring")
    want("first_white", data.get("first_white") in SIDES, "side")
    for key in _BOOL_KEYS:
        want(key, isinstance(data.get(key), bool), "bool")
    want(
        "crawford",
        data.get("crawford") is None or isinstance(data.get("crawford"), bool),
        "bool_or_null",
    )
    want(
        "category",
        data.get("category") is None
        or isinstance(data.get("category"), (int, str))
        and not isinstance(data.get("category"), bool),
        "category",
    )
    if "draw" in data:
        draw = data["draw"]
        if draw is None:
            kwargs["draw"] = None
        elif isinstance(draw, (int, float)) and not isinstance(draw, bool):
            kwargs["draw"] = _as_number(draw)
        else:
            bad.append(_input_problem("draw", "draw", got=repr(draw)))

    games: list[GameEntry] | None = None
    if data.get("games") is not None:
        raw_games = data["games"]
        if not isinstance(raw_games, list):
            bad.append(_input_problem("games", "games"))
        else:
            games = []
            for i, raw in enumerate(raw_games, start=1):
                entry = _parse_game(i, raw, bad)
                if entry is not None:
                    games.append(entry)
    final = None
    if data.get("final") is not None:
        raw = data["final"]
        ok = (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)
        )
        if ok:
            final = (_as_number(raw[0]), _as_number(raw[1]))
        else:
            bad.append(_input_problem("final", "final", got=repr(raw)))
    if bad:
        raise RuleViolation(bad)
    return MatchInput(MatchSpec(**kwargs), tuple(games) if games is not None else None, final)


def _as_number(value: int | float) -> Number:
    if isinstance(value, int):
        return value
    number = Fraction(str(value))
    return int(number) if number.denominator == 1 else number


def _parse_game(number: int, raw: Any, bad: list[Problem]) -> GameEntry | None:
    if not isinstance(raw, Mapping):
        bad.append(_input_problem("game", "game_object", number))
        return None
    start = len(bad)
    for key in sorted(set(raw) - _GAME_KEYS):
        bad.append(
            _input_problem(str(key), "known_field", number, known=", ".join(sorted(_GAME_KEYS)))
        )
    if "kind" not in raw:
        bad.append(_input_problem("kind", "present", number))
    checks: Iterable[tuple[str, bool, str]] = (
        ("winner", raw.get("winner") is None or isinstance(raw.get("winner"), str), "winner"),
        ("kind", isinstance(raw.get("kind"), str), "text"),
        ("cube", "cube" not in raw or _is_int(raw["cube"]), "int"),
        ("dropped", "dropped" not in raw or isinstance(raw["dropped"], bool), "bool"),
        ("autodoubles", "autodoubles" not in raw or _is_int(raw["autodoubles"]), "int"),
    )
    for key, ok, expected in checks:
        if key in raw and not ok:
            bad.append(_input_problem(key, expected, number, got=repr(raw[key])))
    if len(bad) > start:
        return None
    return GameEntry(
        winner=raw.get("winner"),
        kind=raw["kind"],
        cube=raw.get("cube", 1),
        dropped=raw.get("dropped", False),
        autodoubles=raw.get("autodoubles", 0),
    )


def validate_match_data(data: Any) -> MatchValidation:
    """Parse untrusted input and validate it; input errors come back as a failed result."""
    try:
        parsed = parse_match_input(data)
    except RuleViolation as exc:
        return MatchValidation(False, tuple(exc.problems), (0, 0), None)
    return validate_match(parsed.spec, parsed.games, parsed.final)


__all__ = [
    "DRAW",
    "GameEntry",
    "GameLine",
    "MatchInput",
    "MatchSpec",
    "MatchValidation",
    "game_values",
    "last_game_values",
    "parse_match_input",
    "spec_problems",
    "validate_match",
    "validate_match_data",
]
