"""Property tests: every simulated real match passes; every kind of tampering is caught.

Matches are simulated game by game under random options, choosing only what the
rules allow at that moment (the cube only outside the Crawford game, automatic
doubles within the limit, passes only below the maximum cube, ...). Such a
ledger, its final score, and the final score alone must all be accepted; a
single mutation must be refused with its own code at the right game.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.match.check import validate_match
from scoring.rules.match.spec import GameEntry, MatchSpec
from scoring.rules.variants import SCORING_TABLES

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STANDARD_MAXES = [2, 4, 8, 16, 32, 64]


@st.composite
def specs(draw: st.DrawFn) -> MatchSpec:
    points = draw(st.booleans())
    cube = draw(st.booleans())
    dave = cube and draw(st.booleans())
    if dave:
        max_cube = draw(st.sampled_from([None, 2, 3, 4, 5, 6]))
        autodoubles: int | None = 0
    else:
        max_cube = draw(st.sampled_from([None, *STANDARD_MAXES])) if cube else None
        autodoubles = draw(st.sampled_from([None, 0, 1, 2, 3])) if cube else 0
    beaver = cube and draw(st.booleans())
    options = dict(
        scoring=draw(st.sampled_from(sorted(SCORING_TABLES))),
        cube=cube,
        dave=dave,
        max_cube=max_cube,
        autodoubles=autodoubles,
        beaver=beaver,
        raccoon=beaver and draw(st.booleans()),
    )
    if points:
        crawford = draw(st.sampled_from([None, True, False]))
        holland = cube and crawford is not False and draw(st.booleans())
        return MatchSpec(
            length=draw(st.integers(1, 11)), crawford=crawford, holland=holland, **options
        )
    draw_value = draw(st.sampled_from([None, 1, Fraction(1, 2)]))
    return MatchSpec(fixed_games=draw(st.integers(1, 7)), draw=draw_value, **options)


def simulate(draw: st.DrawFn, spec: MatchSpec) -> tuple[list[GameEntry], list[bool]]:
    """A legal ledger under ``spec`` and, per game, whether it was the Crawford game."""
    kinds = [k for k, _ in spec.table.kinds]
    rules = spec.cube_rules()
    games: list[GameEntry] = []
    crawford_flags: list[bool] = []
    score = [Fraction(0), Fraction(0)]
    crawford_done = False
    while True:
        crawford = (
            spec.crawford_on
            and spec.length > 1
            and (spec.length - 1) in score
            and not crawford_done
        )
        crawford_done = crawford_done or crawford
        if spec.draw is not None and draw(st.integers(0, 4)) == 0:
            entry = GameEntry.draw()
            score = [s + spec.draw for s in score]
        else:
            entry = GameEntry(draw(st.sampled_from(["a", "b"])), draw(st.sampled_from(kinds)))
            if spec.cube and not crawford:
                autos = 0
                if not spec.dave:
                    ceiling = rules.max_value.bit_length() - 1
                    limit = ceiling if spec.autodoubles is None else min(spec.autodoubles, ceiling)
                    autos = draw(st.integers(0, limit))
                stakes = [v for v in rules.legal_values() if v >= 2**autos]
                stake = draw(st.sampled_from(stakes))
                can_pass = rules.next_value(stake) <= rules.max_value
                dropped = can_pass and draw(st.booleans())
                entry = replace(
                    entry,
                    cube=stake,
                    autodoubles=autos,
                    dropped=dropped,
                    kind=kinds[0] if dropped else entry.kind,
                )
            value = dict(spec.table.kinds)[entry.kind]
            won = entry.cube * (1 if entry.dropped else value)
            score[0 if entry.winner == "a" else 1] += won
        games.append(entry)
        crawford_flags.append(crawford)
        if spec.is_points and max(score) >= spec.length:
            return games, crawford_flags
        if not spec.is_points and len(games) == spec.fixed_games:
            return games, crawford_flags


def located(result) -> set[tuple[str, int | None]]:
    return {(p.code, p.game) for p in result.problems}


@SETTINGS
@given(st.data())
def test_simulated_matches_are_accepted_as_ledger_and_as_summary(data):
    spec = data.draw(specs())
    games, crawford_flags = simulate(data.draw, spec)
    ledger = validate_match(spec, games)
    assert ledger.ok, ledger.problems
    assert ledger.decided
    expected_crawford = crawford_flags.index(True) + 1 if True in crawford_flags else None
    assert ledger.crawford_game == expected_crawford
    assert validate_match(spec, games, final=ledger.score).ok
    summary = validate_match(spec, final=ledger.score)
    assert summary.ok, (ledger.score, summary.problems)
    assert summary.winner == ledger.winner


@SETTINGS
@given(st.data())
def test_mutations_are_refused_with_their_code_and_game(data):
    spec = data.draw(specs())
    games, crawford_flags = simulate(data.draw, spec)
    n = len(games)
    score = validate_match(spec, games).score
    after = "match.game_after_end" if spec.is_points else "match.too_many_games"

    extra = validate_match(spec, [*games, GameEntry("a", spec.table.kinds[0][0])])
    assert (after, n + 1) in located(extra)

    wrong_final = validate_match(spec, games, final=(score[0] + 1, score[1]))
    assert ("match.final_mismatch", None) in located(wrong_final)

    unfinished = validate_match(spec, games[:-1])
    assert ("match.match_unfinished", None) in located(unfinished)

    i = data.draw(st.integers(0, n - 1))
    victim = games[i]
    bad_kind = validate_match(spec, [*games[:i], replace(victim, kind="schach"), *games[i + 1 :]])
    assert ("match.bad_kind", i + 1) in located(bad_kind)

    illegal = 0 if spec.dave else data.draw(st.sampled_from([0, 3, 5, 6, 12, 24]))
    bad_cube = validate_match(spec, [*games[:i], replace(victim, cube=illegal), *games[i + 1 :]])
    assert ("match.cube_not_legal", i + 1) in located(bad_cube)

    if victim.kind == "draw":
        return
    cube_game = replace(victim, cube=2, dropped=False, autodoubles=0)
    tampered = validate_match(spec, [*games[:i], cube_game, *games[i + 1 :]])
    if not spec.cube:
        assert ("match.cube_off", i + 1) in located(tampered)
    elif crawford_flags[i]:
        assert ("match.cube_in_crawford", i + 1) in located(tampered)
    else:
        max_value = spec.cube_rules().max_value
        too_big = spec.cube_rules().next_value(max_value)
        above = validate_match(spec, [*games[:i], replace(victim, cube=too_big), *games[i + 1 :]])
        assert ("match.cube_above_max", i + 1) in located(above)
        if spec.autodoubles is not None and not spec.dave:
            autos = replace(victim, autodoubles=spec.autodoubles + 1)
            result = validate_match(spec, [*games[:i], autos, *games[i + 1 :]])
            assert ("match.autodoubles_exceeded", i + 1) in located(result)


@SETTINGS
@given(spec=specs(), data=st.data())
def test_summary_mutations(spec, data):
    if not spec.is_points:
        return
    n = spec.length
    loser = data.draw(st.integers(0, n - 1))
    both = validate_match(spec, final=(n + data.draw(st.integers(0, 3)), n))
    assert both.codes == ["match.final_both_reached"]
    short = validate_match(spec, final=(n - 1, loser))
    assert short.codes == ["match.match_unfinished"]
    from scoring.rules.match.summary import game_values

    too_far = n - 1 + max(game_values(spec)) + 1
    assert validate_match(spec, final=(loser, too_far)).codes == ["match.final_jump_impossible"]


def reachable_finals(spec: MatchSpec) -> set[tuple[int, int]]:
    """Every final score of a point match, by exhaustive search over an independent model.

    The model is the rules as the book states them: a game is worth kind × stake,
    the stake is 1 in the Crawford game (the first game after someone first stands
    one point from the goal) and anything from the cube elsewhere.
    """
    n = spec.length
    kinds = {v for _, v in spec.table.kinds}
    stakes = [1]
    while spec.cube and stakes[-1] * 2 <= spec.max_value:
        stakes.append(stakes[-1] * 2)
    cube_values = {k * s for k in kinds for s in stakes}
    finals: set[tuple[int, int]] = set()
    seen: set[tuple[int, int, bool]] = set()
    todo = [(0, 0, False)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        a, b, crawford_done = state
        crawford = spec.crawford_on and n > 1 and n - 1 in (a, b) and not crawford_done
        values = kinds if crawford else cube_values
        for v, a_wins in itertools.product(values, (True, False)):
            na, nb = (a + v, b) if a_wins else (a, b + v)
            if max(na, nb) >= n:
                finals.add((na, nb))
            else:
                todo.append((na, nb, crawford_done or crawford))
    return finals


@pytest.mark.parametrize("length", [1, 2, 3, 5])
@pytest.mark.parametrize("scoring", ["backgammon", "trictrac", "oyun_mars"])
@pytest.mark.parametrize(
    "cube_options",
    [dict(cube=False), dict(cube=True, max_cube=4), dict(cube=True, max_cube=4, crawford=False)],
)
def test_summary_accepts_exactly_the_reachable_finals(length, scoring, cube_options):
    spec = MatchSpec(length=length, scoring=scoring, **cube_options)
    finals = reachable_finals(spec)
    top = max(max(f) for f in finals) + 2
    for final in itertools.product(range(top), repeat=2):
        assert validate_match(spec, final=final).ok == (final in finals), final
