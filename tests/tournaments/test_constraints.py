"""The database itself refuses what must never happen, whatever process writes."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Result, ResultState
from tests.factories import (
    EntryFactory,
    MatchFactory,
    ResultFactory,
    RoundFactory,
    TournamentFactory,
    enter,
)
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(name="Cup", slug="cup", starts_on=dt.date(2026, 1, 1), bare=True)


@pytest.fixture
def entries(tournament):
    return enter(tournament, [{"last_name": f"Игрок{i}", "short": True} for i in range(4)])


def test_second_confirmed_result_for_a_match_is_refused(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    match = MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[1])
    ResultFactory(match=match, score_a=5, score_b=3, state=ResultState.CONFIRMED)
    ResultFactory(match=match, score_a=5, score_b=2, state=ResultState.REPORTED)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultFactory(match=match, score_a=5, score_b=4, state=ResultState.CONFIRMED)
    assert match.results.filter(state=ResultState.CONFIRMED).count() == 1


def test_confirming_a_second_report_by_update_is_refused_too(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    match = MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[1])
    ResultFactory(match=match, score_a=5, score_b=3, state=ResultState.CONFIRMED)
    other = ResultFactory(match=match, score_a=5, score_b=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.filter(pk=other.pk).update(state=ResultState.CONFIRMED)


def test_duplicate_draw_number_is_refused(tournament, entries):
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(pk=entries[1].pk).update(draw_number=entries[0].draw_number)


def test_player_entered_twice_is_refused(tournament, entries):
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryFactory(tournament=tournament, player=entries[0].player, draw_number=None)


def test_player_twice_in_a_round_is_refused(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[1])
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchFactory(round=rnd, table=2, entry_a=entries[2], entry_b=entries[0])
    # The same player may of course play in the next round.
    rnd2 = RoundFactory(tournament=tournament, number=2, draft=True)
    MatchFactory(round=rnd2, table=1, entry_a=entries[0], entry_b=entries[2])


def test_moving_a_player_into_an_occupied_round_is_refused(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[1])
    second = MatchFactory(round=rnd, table=2, entry_a=entries[2], entry_b=entries[3])
    second.entry_b = entries[1]
    with pytest.raises(IntegrityError), transaction.atomic():
        second.save()


def test_bye_has_one_seat_and_frees_nothing_else(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    bye = MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=None)
    assert bye.is_bye
    assert list(bye.seats.values_list("entry_id", flat=True)) == [entries[0].pk]


def test_player_against_themselves_is_refused(tournament, entries):
    rnd = RoundFactory(tournament=tournament, number=1, draft=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchFactory(round=rnd, table=1, entry_a=entries[0], entry_b=entries[0])


def test_duplicate_round_number_is_refused(tournament):
    RoundFactory(tournament=tournament, number=1, draft=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundFactory(tournament=tournament, number=1, draft=True)
