"""When a rated match was played, and the order a pool is rated in (pure; the dating rule lives here).

**The dating rule.** A rated match is dated by when it was played, never by when its
result was confirmed, corrected or imported:

* the date its round was published (the round's day), when that day lies within the
  event's days (``starts_on`` … ``ends_on``; an event without an end date is one day);
* otherwise — a round never published, or published outside the event's days because
  the event was entered or imported afterwards (the book's 2011 crosstable loaded
  today) — the event's first day.

**The order.** A pool is rated in played order: by that date, then the event's first
day, the event, the round's number, the table and the match's id (so two events of one
day, and two matches of one round, always come in the same order). A rating is a pure
function of the results in this order (:func:`clubs.ratings.history.replay`), so a full
rebuild and the incremental path agree.

**A past event added late** (imported, or made rated, after later events were rated):
its matches take their places by date, and the pool is recomputed from the first of
them on — every later rating change of every player involved is replayed, since each
depends on the ratings and experience before it.
"""

from __future__ import annotations

import datetime as dt


def played_on(round_day: dt.date | None, starts_on: dt.date, ends_on: dt.date | None) -> dt.date:
    """The date a match of this round was played (see the module docstring)."""
    last = ends_on or starts_on
    if round_day is not None and starts_on <= round_day <= last:
        return round_day
    return starts_on


def order_key(
    played: dt.date, starts_on: dt.date, event: int, round_number: int, table: int | None, match: int
) -> tuple:
    """The place of a match in its pool's order (smaller first)."""
    return (played, starts_on, event, round_number, table or 0, match)
