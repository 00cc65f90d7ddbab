"""The exact matcher behind "no rematch whenever one can be avoided", against brute force."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.matching import Matcher


def brute_max(n: int, edges: set[frozenset[int]]) -> int:
    best = 0

    def go(free: list[int], size: int) -> None:
        nonlocal best
        best = max(best, size)
        if len(free) < 2 or size + len(free) // 2 <= best:
            return
        first, rest = free[0], free[1:]
        go(rest, size)
        for k, q in enumerate(rest):
            if frozenset((first, q)) in edges:
                go(rest[:k] + rest[k + 1 :], size + 1)

    go(list(range(n)), 0)
    return best


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=1, max_value=11))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    return n, {frozenset(p) for p in chosen}


def matcher_for(n: int, edges: set[frozenset[int]]) -> Matcher:
    adj = {v: [u for u in range(n) if frozenset((u, v)) in edges] for v in range(n)}
    return Matcher(n, adj.__getitem__, lambda u, v: frozenset((u, v)) in edges)


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_size_equals_brute_force(graph):
    n, edges = graph
    m = matcher_for(n, edges)
    size = m.maximise()
    assert size == brute_max(n, edges)
    for v, u in enumerate(m.mate):
        if u != -1:
            assert m.mate[u] == v and frozenset((u, v)) in edges


@settings(max_examples=200, deadline=None)
@given(graphs(), st.data())
def test_guarded_pair_fixing_never_loses_a_perfect_matching(graph, data):
    n, edges = graph
    m = matcher_for(n, edges)
    if 2 * m.maximise() != n:
        return
    fixed: list[tuple[int, int]] = []
    live = set(range(n))
    while live:
        p = min(live)
        options = sorted(q for q in live if q != p and frozenset((p, q)) in edges)
        order = data.draw(st.permutations(options))
        for q in order:
            if m.fix_pair(p, q):
                fixed.append((p, q))
                live -= {p, q}
                break
        else:
            raise AssertionError("a perfect matching existed but no pair could be fixed")
    assert len(fixed) * 2 == n
