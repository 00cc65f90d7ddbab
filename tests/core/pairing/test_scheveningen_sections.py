"""Scheveningen coverage and the team knockout (the team match is scored by the standings
core: tests/core/standings/test_team_match.py).

The absolute champion across sections is decided by the standings core
(tests/core/standings/test_ties_and_systems.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.pairing.knockout import MAIN, NOBODY, KnockoutEntrant
from tournaments.pairing.scheveningen import scheveningen, team_knockout


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
