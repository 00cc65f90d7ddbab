"""Shared ranks and the provisional mark of rating lists (clubs.ratings.lists)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clubs.ratings.lists import PROVISIONAL_MATCHES, is_provisional, rank_label, shared_ranks


def test_equal_ratings_share_a_rank_and_the_next_counts_them():
    ratings = [1700.0, 1650.0, 1600.0, 1600.001, 1599.999, 1550.0]
    ranks = shared_ranks(ratings)
    assert [rank_label(ranks, r) for r in ratings] == ["1", "2", "3–5", "3–5", "3–5", "6"]


@given(st.lists(st.floats(1000, 2500, allow_nan=False), min_size=1, max_size=40))
def test_ranks_cover_every_place_once(ratings):
    ranks = shared_ranks(ratings)
    places = sorted(p for first, last in set(ranks.values()) for p in range(first, last + 1))
    assert places == list(range(1, len(ratings) + 1))
    for r in ratings:  # a higher shown rating never has a worse rank
        for s in ratings:
            if round(r, 2) > round(s, 2):
                assert ranks[round(r, 2)][1] < ranks[round(s, 2)][0]


def test_a_rating_is_provisional_until_thirty_rated_matches():
    assert PROVISIONAL_MATCHES == 30 and is_provisional(29) and not is_provisional(30)
