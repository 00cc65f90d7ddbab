"""Ratings in the order events happened (issue 37): a late-imported past event rates in played order."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import TestCase
from django.utils import timezone

from clubs.models import PlayerRating
from clubs.ratings.history import RatedMatch, replay
from scoring import workflow
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.models import RatingChange
from tournaments.ratings import service as ratings_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


def _event(director, players, starts_on, ends_on=None, published=None):
    event = TournamentFactory(rated=True, variant="backgammon", starts_on=starts_on, ends_on=ends_on)
    OfficialFactory(tournament=event, user=director, role="organiser")
    rounds = [RoundFactory(tournament=event, number=n, published_at=published) for n in (1, 2)]
    return enter(event, players), rounds


def _play(director, rnd, a, b, score):
    match = MatchFactory(round=rnd, entry_a=a, entry_b=b)
    with TestCase.captureOnCommitCallbacks(execute=True):
        workflow.submit_result(match.pk, director, version=match.version, final=score, confirm=True)
    return match


def _history():
    return list(RatingChange.objects.filter(pool="backgammon").order_by("sequence", "player_id")
                .values_list("match_id", "sequence", "played_on", "player_id", "rating_after"))  # fmt: skip


def test_a_late_imported_past_event_rates_in_played_order(director):
    anna, boris, vera = PlayerFactory.create_batch(3)
    # This year's event is played and rated first …
    (a1, b1), (r1, _) = _event(director, [anna, boris], dt.date(2026, 3, 1))
    this_year = _play(director, r1, a1, b1, (5, 3))
    # … then the book's 2011 event is imported today: its rounds are published now, outside its days.
    (a2, v2), (s1, s2) = _event(director, [anna, vera], dt.date(2011, 5, 14), dt.date(2011, 5, 15), timezone.now())
    old_1 = _play(director, s1, a2, v2, (1, 5))
    old_2 = _play(director, s2, a2, v2, (5, 4))

    changes = RatingChange.objects.filter(pool="backgammon", player=anna).order_by("sequence")
    assert [(c.match_id, c.played_on) for c in changes] == [
        (old_1.pk, dt.date(2011, 5, 14)), (old_2.pk, dt.date(2011, 5, 14)), (this_year.pk, dt.date(2026, 3, 1))]  # fmt: skip
    # Her rating is the replay in played order, which is not the order the results came in.
    played = [RatedMatch(anna.pk, vera.pk, 5, 1, 5), RatedMatch(anna.pk, vera.pk, 5, 5, 4),
              RatedMatch(anna.pk, boris.pk, 5, 5, 3)]  # fmt: skip
    in_played_order = replay(None, played)[0]
    as_confirmed = replay(None, [played[2], played[0], played[1]])[0]
    mine = PlayerRating.objects.get(player=anna, pool="backgammon")
    assert mine.rating == pytest.approx(in_played_order[anna.pk].rating, abs=1e-9)
    assert mine.rating != pytest.approx(as_confirmed[anna.pk].rating, abs=1e-9)
    assert PlayerRating.objects.get(player=boris, pool="backgammon").rating == pytest.approx(
        in_played_order[boris.pk].rating, abs=1e-9)  # fmt: skip
    # Not "active this month": Vera last played in 2011, Anna in March 2026.
    assert PlayerRating.objects.get(player=vera, pool="backgammon").last_played == dt.date(2011, 5, 14)
    assert mine.last_played == dt.date(2026, 3, 1)
    # A full rebuild gives the same history: the order is the played order, not the saving order.
    before = _history()
    ratings_service.recompute("backgammon", 1)
    assert _history() == before


def test_a_round_published_within_the_events_days_dates_its_matches(director):
    anna, boris = PlayerFactory.create_batch(2)
    day_two = timezone.make_aware(dt.datetime(2026, 4, 2, 15, 0))
    (a, b), (r1, _) = _event(director, [anna, boris], dt.date(2026, 4, 1), dt.date(2026, 4, 3), day_two)
    match = _play(director, r1, a, b, (5, 0))
    assert set(RatingChange.objects.filter(match=match).values_list("played_on", flat=True)) == {dt.date(2026, 4, 2)}


def test_a_correction_of_a_past_match_replays_everything_after_it(director):
    anna, boris = PlayerFactory.create_batch(2)
    (a1, b1), (r1, r2) = _event(director, [anna, boris], dt.date(2026, 3, 1))
    first = _play(director, r1, a1, b1, (5, 3))
    _play(director, r2, a1, b1, (5, 2))
    first.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        workflow.submit_result(first.pk, director, version=first.version, final=(3, 5), confirm=True,
                               reason="score entered the wrong way round")  # fmt: skip
    expected = replay(None, [RatedMatch(anna.pk, boris.pk, 5, 3, 5), RatedMatch(anna.pk, boris.pk, 5, 5, 2)])[0]
    assert PlayerRating.objects.get(player=anna, pool="backgammon").rating == pytest.approx(
        expected[anna.pk].rating, abs=1e-9)  # fmt: skip


def test_the_api_tournament_resource_says_whether_it_is_rated(client):
    TournamentFactory(slug="rated-cup", rated=True)
    assert client.get("/api/tournaments/rated-cup/").json()["rated"] is True
