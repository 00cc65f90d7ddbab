"""Rulings after the fact (issue 15, item 7): disputing a confirmed result within the window.

The organiser sets how long after a confirmation either player may still
dispute it (``Tournament.dispute_window``, minutes); the dispute names who
raised it, never the reporter of the disputed result.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring import services
from scoring.demo import SWISS_SLUG
from scoring.models import Dispute, Result, ResultState
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def swiss(demo_once, db):
    return Tournament.objects.get(slug=SWISS_SLUG)


@pytest.fixture
def match(swiss):
    return Match.objects.select_related("entry_a__player__user", "entry_b__player__user").get(
        round__tournament=swiss, round__number=3, table=1
    )


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def confirmed_by_the_players(match) -> Result:
    a, b = match.entry_a.player.user, match.entry_b.player.user
    result = services.submit_result(match.pk, a, version=fresh(match).version, final=(7, 3))
    return services.confirm_result(match.pk, result.pk, b, version=fresh(match).version)


def url(name, match, **kw):
    return reverse(name, kwargs={"slug": SWISS_SLUG, "match_id": match.pk, **kw})


def test_within_the_window_the_confirming_player_disputes_and_is_named(client, swiss, match):
    swiss.dispute_window = 30
    swiss.save()
    result = confirmed_by_the_players(match)
    b = match.entry_b.player.user
    client.force_login(b)
    assert "Dispute this result" in client.get(url("result-match", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert client.get(url("result-dispute", match)).status_code == 302  # not 405: to the match page
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "It was 7:5, not 7:3"},
    )
    assert answer.status_code == 302
    dispute = Dispute.objects.get(match=match)
    assert dispute.raised_by == b and dispute.raised_side == "b"
    client.force_login(User.objects.get(username="organiser"))
    detail = client.get(
        reverse("dispute-detail", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    raised = detail[detail.index("Raised by"):][:300]
    b_name = match.entry_b.player.display_name("en")
    assert b_name in raised and match.entry_a.player.display_name("en") not in raised


@pytest.mark.parametrize(("lang", "words"), [("en", "time to dispute it has passed"), ("ru", "время для спора истекло")])
def test_after_the_window_the_dispute_is_refused_with_the_reason(client, swiss, match, lang, words):
    swiss.dispute_window = 30
    swiss.save()
    result = confirmed_by_the_players(match)
    Result.objects.filter(pk=result.pk).update(
        confirmed_at=result.confirmed_at - dt.timedelta(minutes=31)
    )
    a = match.entry_a.player.user
    client.force_login(a)
    page = client.get(url("result-match", match), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'name="reason"' not in page
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "late"},
        HTTP_ACCEPT_LANGUAGE=lang, follow=True,
    )
    assert words in answer.content.decode()
    assert not Dispute.objects.filter(match=match).exists()
    with pytest.raises(services.ResultError) as refused:
        services.dispute_result(match.pk, result.pk, a, version=fresh(match).version, reason="late")
    assert refused.value.problem.code == "workflow.dispute_window"


def test_without_a_window_players_who_confirmed_cannot_reopen_it(client, swiss, match):
    result = confirmed_by_the_players(match)
    assert swiss.dispute_window == 0
    client.force_login(match.entry_b.player.user)
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "changed my mind"},
    )
    assert answer.status_code == 403
    assert fresh(match).result_status == "confirmed"
    assert Result.objects.get(pk=result.pk).state == ResultState.CONFIRMED
