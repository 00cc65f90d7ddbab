"""What a rating list shows beside the number: shared ranks and the provisional mark (pure).

**Shared ranks.** Players are ranked by their rating as the list shows it (two
decimals): equal shown ratings share one rank, written as the range of places they
cover ("4–6", the usual way of writing a shared place, as the standings do), and the
next player's rank counts them all (7). A list never numbers equal ratings 4, 5, 6.

**Provisional.** A rating is provisional while the player has played fewer than
:data:`PROVISIONAL_MATCHES` rated matches in the pool: until then it rests mostly on
where the player started (:mod:`clubs.ratings.starts`: a rating at entry, an imported or
declared one, or 1500) rather than on results here, and the FIBS factor
``K = max(1, 5 - experience / 100)`` (:func:`clubs.ratings.fibs.k_factor`) still moves it
several times faster than an established one. The count, 30, is FIDE's for a player new
to its list (Rating Regulations 2024, 8.3.1: K = 40 "until he has completed events with at
least 30 games"); USCF calls a rating provisional for its first 25 games. Counted in
matches, as those lists count games, so one long match does not end it early.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Rated matches in the pool from which a rating is no longer provisional.
PROVISIONAL_MATCHES = 30
#: Ratings are shown, and therefore ranked, to this many decimals.
SHOWN_DIGITS = 2


def is_provisional(matches: int) -> bool:
    """Whether a rating built on ``matches`` rated matches of its pool is still provisional."""
    return matches < PROVISIONAL_MATCHES


def shown(rating: float) -> float:
    return round(rating, SHOWN_DIGITS)


def shared_ranks(ratings: Iterable[float]) -> dict[float, tuple[int, int]]:
    """Each shown rating → (first place, last place) it covers, highest rating first."""
    ordered = sorted((shown(r) for r in ratings), reverse=True)
    out: dict[float, tuple[int, int]] = {}
    for place, value in enumerate(ordered, start=1):
        first, _last = out.get(value, (place, place))
        out[value] = (first, place)
    return out


def rank_label(ranks: dict[float, tuple[int, int]], rating: float) -> str:
    first, last = ranks[shown(rating)]
    return str(first) if first == last else f"{first}–{last}"
