"""Round robin: the published FIDE Berger tables, cycles, byes, every pair exactly once."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.pairing.round_robin import berger_table, round_robin

# FIDE Handbook C.05, Annex 1 ("Berger Tables for Round-Robin Tournaments"), as published:
# one line per round, "a-b" means a is first-named (White). For an odd field the highest
# number stands for the bye.
PUBLISHED = """
4
1-4, 2-3
4-3, 1-2
2-4, 3-1
6
1-6, 2-5, 3-4
6-4, 5-3, 1-2
2-6, 3-1, 4-5
6-5, 1-4, 2-3
3-6, 4-2, 5-1
8
1-8, 2-7, 3-6, 4-5
8-5, 6-4, 7-3, 1-2
2-8, 3-1, 4-7, 5-6
8-6, 7-5, 1-4, 2-3
3-8, 4-2, 5-1, 6-7
8-7, 1-6, 2-5, 3-4
4-8, 5-3, 6-2, 7-1
10
1-10, 2-9, 3-8, 4-7, 5-6
10-6, 7-5, 8-4, 9-3, 1-2
2-10, 3-1, 4-9, 5-8, 6-7
10-7, 8-6, 9-5, 1-4, 2-3
3-10, 4-2, 5-1, 6-9, 7-8
10-8, 9-7, 1-6, 2-5, 3-4
4-10, 5-3, 6-2, 7-1, 8-9
10-9, 1-8, 2-7, 3-6, 4-5
5-10, 6-4, 7-3, 8-2, 9-1
12
1-12, 2-11, 3-10, 4-9, 5-8, 6-7
12-7, 8-6, 9-5, 10-4, 11-3, 1-2
2-12, 3-1, 4-11, 5-10, 6-9, 7-8
12-8, 9-7, 10-6, 11-5, 1-4, 2-3
3-12, 4-2, 5-1, 6-11, 7-10, 8-9
12-9, 10-8, 11-7, 1-6, 2-5, 3-4
4-12, 5-3, 6-2, 7-1, 8-11, 9-10
12-10, 11-9, 1-8, 2-7, 3-6, 4-5
5-12, 6-4, 7-3, 8-2, 9-1, 10-11
12-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-12, 7-5, 8-4, 9-3, 10-2, 11-1
14
1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2
2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9
14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3
3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10
14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4
4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11
14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5
5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12
14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13
14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1
16
1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9
16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2
2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10
16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3
3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11
16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4
4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12
16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5
5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13
16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14
16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15
16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1
"""


def published() -> dict[int, list[list[tuple[int, int]]]]:
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    size = 0
    for line in PUBLISHED.strip().splitlines():
        if "-" not in line:
            size = int(line)
            tables[size] = []
            continue
        pairs = [tuple(int(x) for x in item.split("-")) for item in line.split(", ")]
        tables[size].append(pairs)
    return tables


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 16])
def test_equals_the_published_fide_berger_table(n):
    assert berger_table(n) == published()[n]


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11, 13, 15])
def test_odd_fields_use_the_next_even_table_with_the_top_number_as_bye(n):
    table = published()[n + 1]
    rounds = round_robin(list(range(101, 101 + n)))
    for rnd, pairs in zip(rounds, table, strict=True):
        dummy = next(a if b == n + 1 else b for a, b in pairs if n + 1 in (a, b))
        assert rnd.bye == 100 + dummy
        assert [(p.a - 100, p.b - 100) for p in rnd.pairings] == [
            pr for pr in pairs if n + 1 not in pr
        ]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=40), cycles=st.integers(min_value=1, max_value=3))
def test_every_pair_meets_exactly_once_per_cycle_and_everyone_plays_each_round(n, cycles):
    players = [10 * i for i in range(1, n + 1)]
    rounds = round_robin(players, cycles=cycles)
    size = n + n % 2
    assert len(rounds) == cycles * (size - 1)
    for cycle in range(1, cycles + 1):
        mine = [r for r in rounds if r.cycle == cycle]
        met = Counter(frozenset(p.players) for r in mine for p in r.pairings)
        assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
        for r in mine:
            seen = [x for p in r.pairings for x in p.players] + ([r.bye] if r.bye else [])
            assert sorted(seen) == players
        if n % 2:
            assert sorted(r.bye for r in mine) == players  # one bye each per cycle


def test_second_cycle_swaps_sides():
    rounds = round_robin([1, 2, 3, 4, 5, 6], cycles=2)
    first, second = rounds[:5], rounds[5:]
    for r1, r2 in zip(first, second, strict=True):
        assert [(p.b, p.a) for p in r1.pairings] == [(p.a, p.b) for p in r2.pairings]
        assert all(p.white == p.a for p in r2.pairings)


def test_fide_advice_reverses_the_last_two_rounds_of_the_first_cycle():
    plain = round_robin([1, 2, 3, 4], cycles=2)
    advised = round_robin([1, 2, 3, 4], cycles=2, swap_last_two_rounds=True)
    assert advised[1].pairings == plain[2].pairings
    assert advised[2].pairings == plain[1].pairings


def test_invalid_requests_are_rule_violations():
    with pytest.raises(RuleViolation):
        round_robin([1])
    with pytest.raises(RuleViolation):
        round_robin([1, 2], cycles=0)
    with pytest.raises(RuleViolation):
        round_robin([1, 1, 2])
