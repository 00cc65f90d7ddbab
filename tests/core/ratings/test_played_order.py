"""The dating rule of rated matches (clubs.ratings.order): within the event's days, never the day of import."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from clubs.ratings.order import order_key, played_on

days = st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2040, 12, 31))


@given(start=days, length=st.one_of(st.none(), st.integers(0, 30)), round_day=st.one_of(st.none(), days))
def test_a_match_is_dated_within_its_events_days(start, length, round_day):
    end = None if length is None else start + dt.timedelta(days=length)
    day = played_on(round_day, start, end)
    assert start <= day <= (end or start)
    if round_day is not None and start <= round_day <= (end or start):
        assert day == round_day


def test_the_books_2011_event_loaded_today_is_dated_2011():
    assert played_on(dt.date(2026, 11, 27), dt.date(2011, 5, 14), dt.date(2011, 5, 15)) == dt.date(2011, 5, 14)


def test_an_event_without_an_end_date_is_one_day():
    assert played_on(dt.date(2026, 3, 2), dt.date(2026, 3, 1), None) == dt.date(2026, 3, 1)


@given(a=days, b=days)
def test_an_earlier_day_always_comes_first_whatever_the_ids(a, b):
    first, second = order_key(a, a, 99, 9, 9, 999), order_key(b, b, 1, 1, 1, 1)
    if a < b:
        assert first < second
