"""Checking a result game by game (a *ledger*): scores, Crawford, cube values, the winner.

Why its own module: the ledger walks the games in order and keeps a running score, a
different job from searching which final scores a summary could reach
(:mod:`scoring.rules.match.summary`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.rules.errors import Problem
from scoring.rules.match.spec import (
    DRAW,
    DRAW_VALUES,
    SIDES,
    GameEntry,
    GameLine,
    MatchSpec,
    Number,
    _is_int,
    _lower_category,
    format_score,
)
from scoring.rules.problems.match import MATCH


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
        found.append(MATCH.problem("dropped_kind", game=number, value=entry.kind, single=kinds[0]))
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
    run = _Running(score=list(spec.start))
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
