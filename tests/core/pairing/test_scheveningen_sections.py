"""Scheveningen coverage, team and individual scores, team knockout.

The absolute champion across sections is decided by the standings core
(tests/core/standings/test_ties_and_systems.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.pairing.knockout import MAIN, NOBODY, KnockoutEntrant
from tournaments.pairing.scheveningen import (
    IndividualResult,
    individual_standings,
    scheveningen,
    team_knockout,
    team_score,
)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=1, max_value=25))
def test_every_cross_team_pair_meets_exactly_once_and_each_player_once_a_round(n):
    a = list(range(1, n + 1))
    b = list(range(101, 101 + n))
    rounds = scheveningen(a, b)
    assert len(rounds) == n
    met = Counter((p.a, p.b) for r in rounds for p in r.pairings)
    assert set(met) == {(x, y) for x in a for y in b} and set(met.values()) == {1}
    for r in rounds:
        assert sorted(x for p in r.pairings for x in p.players) == sorted(a + b)
    whites = Counter(p.white for r in rounds for p in r.pairings)
    assert all(abs(whites[x] - n / 2) <= 1 for x in a)  # sides alternate


def test_team_score_counts_match_wins_then_points_and_individual_table():
    results = [
        IndividualResult(1, 101, 5, 3),
        IndividualResult(2, 102, 2, 5),
        IndividualResult(102, 1, 5, 4),  # either order is accepted
        IndividualResult(2, 101, 5, 0),
    ]
    score = team_score(results, [1, 2], [101, 102])
    assert (score.wins_a, score.wins_b) == (2, 2)
    assert (score.points_a, score.points_b) == (16.0, 13.0) and score.winner == "A"
    table = individual_standings(results)
    assert [(s.player, s.wins, s.points) for s in table[:2]] == [(102, 2, 10.0), (1, 1, 9.0)]
    with pytest.raises(RuleViolation):
        team_score([IndividualResult(1, 2, 5, 0)], [1, 2], [101, 102])


def test_team_sizes_must_match():
    with pytest.raises(RuleViolation) as err:
        scheveningen([1, 2], [3])
    assert err.value.problems[0].code == "pairing.scheveningen.team_sizes"


def test_six_teams_knockout_halves_the_field_with_byes_to_the_top_teams():
    teams = [KnockoutEntrant(i, draw_number=i) for i in range(1, 7)]
    b = team_knockout(teams)
    first = [m for m in b.matches if m.bracket == MAIN and m.round == 1]
    assert sorted(m.a.player for m in first if m.b.kind == NOBODY) == [1, 2]
    assert max(m.round for m in b.matches) == 3
    with pytest.raises(RuleViolation):
        team_knockout(teams[:5])
