"""Maximum-weight matching (the optimal Swiss round's engine) against brute force."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.weighted import max_weight_matching


def brute_force(n: int, weight: dict[frozenset[int], int]) -> int:
    def best(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        top = best(others)  # ``first`` stays single
        for k, q in enumerate(others):
            w = weight.get(frozenset((first, q)), 0)
            if w > 0:
                top = max(top, w + best(others[:k] + others[k + 1 :]))
        return top

    return best(list(range(n)))


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=0, max_value=9))
    big = draw(st.booleans())  # the Swiss encoder's weights are huge integers
    scale = 10**40 if big else 1
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            if draw(st.booleans()):
                edges.append((u, v, draw(st.integers(min_value=-3, max_value=20)) * scale + u))
    return n, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_the_matching_is_valid_and_as_heavy_as_the_best_possible(graph):
    n, edges = graph
    weight = {frozenset((u, v)): w for u, v, w in edges}
    mate = max_weight_matching(n, edges)
    total = 0
    for v, u in enumerate(mate):
        if u != -1:
            assert mate[u] == v and weight[frozenset((u, v))] > 0
            if u > v:
                total += weight[frozenset((u, v))]
    assert total == brute_force(n, weight)
