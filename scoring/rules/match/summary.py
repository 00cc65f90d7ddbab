"""Checking a bare final score (a *summary*, "5:3"): could some legal sequence of games end so?

The game values a variant, cube and davé allow (:func:`game_values`), and a search over
how many games at which values reach the stated score. Pure arithmetic; the ledger
lives in :mod:`scoring.rules.match.ledger`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from scoring.rules.errors import Problem
from scoring.rules.match.cube import CubeRules
from scoring.rules.match.spec import (
    DRAW_VALUES,
    SIDES,
    MatchSpec,
    Number,
    _is_int,
    format_number,
    format_score,
)
from scoring.rules.problems.match import MATCH
from scoring.rules.variants import SCORING_TABLES


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
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, Decimal)):
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
    for before in range(min(int(spec.start[w_index]), length), length):
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
    x, y = (Fraction(s) - Fraction(b) for s, b in zip(score, spec.start, strict=True))
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
