"""What a rating list shows beside the number: shared ranks and the provisional mark (pure).

**Shared ranks.** Players are ranked by their rating as the list shows it (two
decimals): equal shown ratings share one rank, written as the range of places they
cover ("4–6", the usual way of writing a shared place, as the standings do), and the
next player's rank counts them all (7). A list never numbers equal ratings 4, 5, 6.

**Provisional.** A rating is provisional while the player's experience is below
:data:`PROVISIONAL_BELOW` points: until then the FIBS formula's experience factor
``K = max(1, 5 - experience / 100)`` is above 1 (:func:`clubs.ratings.fibs.k_factor`),
so the rating still moves up to five times as fast as an established one and says
little yet. FIBS's own formula (``help formula``, see :mod:`clubs.ratings.fibs`) is the
source of the 400.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Experience (match points played) from which the FIBS experience factor is 1.
PROVISIONAL_BELOW = 400
#: Ratings are shown, and therefore ranked, to this many decimals.
SHOWN_DIGITS = 2


def is_provisional(experience: float) -> bool:
    return experience < PROVISIONAL_BELOW


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
