"""The pool's rule for a newcomer's first rating (clubs.ratings.starts): sources in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clubs.ratings.fibs import NEW_RATING
from clubs.ratings.starts import ENTRY, NEW, PLAYER, Clues, Start, start_of

ratings = st.one_of(st.none(), st.just(NEW_RATING), st.floats(min_value=100, max_value=3000))


def test_the_entry_comes_first_then_the_player_then_1500():
    assert start_of(Clues(1650, 1720)) == Start(1650, ENTRY)
    assert start_of(Clues(None, 1720)) == Start(1720, PLAYER)
    assert start_of(Clues(None, None)) == Start(NEW_RATING, NEW)


def test_a_stated_1500_or_nonsense_is_no_clue():
    assert start_of(Clues(1500, 1720)) == Start(1720, PLAYER)
    assert start_of(Clues(float("nan"), 0)) == Start(NEW_RATING, NEW)
    assert start_of(Clues(-40, None)).source == NEW


@given(ratings, ratings)
def test_the_start_is_the_first_stated_clue_and_experience_starts_at_zero(entry, player):
    first = start_of(Clues(entry, player))
    if entry is not None and entry != NEW_RATING:
        assert first == Start(entry, ENTRY)
    elif player is not None and player != NEW_RATING:
        assert first == Start(player, PLAYER)
    else:
        assert first == Start(NEW_RATING, NEW)
    assert first.standing().experience == 0 and first.standing().rating == first.rating
