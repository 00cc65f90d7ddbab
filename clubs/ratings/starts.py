"""Where a player new to a rating pool starts (pure): the pool's rule for a first rating.

**The rule.** A player's first rated match in a pool (in the pool's played order,
:mod:`clubs.ratings.order`) starts them at the first of these that states a rating,
with experience 0:

1. ``entry`` — the rating at entry (``Entry.seed_rating``) of that match's event: typed
   by the organiser, given by the player's application or by an imported entry list;
2. ``player`` — the rating the player's record carries (``Player.rating``): imported with
   a member or rating list, or declared at registration;
3. ``new`` — 1500, where FIBS starts every player.

A stated 1500 is the newcomer's number whichever source states it, so it is shown as
``new``: most entries copy the record's default 1500 and that tells nothing about the
player. Because the rule reads only stored results and stored entries, a full recompute
gives every player the same start again.

**Sources.** FIBS starts everyone at 1500 with experience 0 (``help formula``, see
:mod:`clubs.ratings.fibs`). Swiss-Manager and FIDE keep a player's existing rating as
the start when a player comes to an event with one (a rated player's published rating
stands; FIDE Rating Regulations, "unrated" players only get an initial rating computed).
A club's pool treats an imported or entered rating the same way: it is the best evidence
there is before the player's first result here. Experience still starts at 0 — the
pool has seen none of the player's matches, so the FIBS factor K is 5 and the start is
corrected quickly by the results; the list marks the rating provisional until
:data:`clubs.ratings.lists.PROVISIONAL_MATCHES` rated matches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import isfinite

from .fibs import NEW_RATING, Standing

ENTRY, PLAYER, NEW = "entry", "player", "new"


@dataclass(frozen=True, slots=True)
class Clues:
    """What is known of a newcomer when their first rated match in the pool is played."""

    entry_rating: float | None = None
    player_rating: float | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """A first rating in a pool and the source it came from (``entry``, ``player`` or ``new``)."""

    rating: float = NEW_RATING
    source: str = NEW

    def standing(self) -> Standing:
        return Standing(self.rating, 0)


#: The sources in the order they are asked: ONE table, a newcomer adds a row.
SOURCES: tuple[tuple[str, Callable[[Clues], float | None]], ...] = (
    (ENTRY, lambda clues: clues.entry_rating),
    (PLAYER, lambda clues: clues.player_rating),
)


def _stated(value: float | None) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and isfinite(value)
        and value > 0
        and value != NEW_RATING
    )


def start_of(clues: Clues) -> Start:
    """The first rating of a newcomer by the rule above."""
    for source, read in SOURCES:
        value = read(clues)
        if _stated(value):
            return Start(float(value), source)
    return Start()
