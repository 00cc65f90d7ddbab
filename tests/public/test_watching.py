"""Thousands of phones watching an event (issue 50): every poll of a public page or of the live
stamp names what it holds (``If-None-Match``) and gets a 304 without a body, and without a
query, while nothing it shows changed; a change answers the new page at once."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import ResultState
from tests.factories import ResultFactory, swiss_event
from tournaments.models import Match, ResultStatus, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def url(name: str, t: Tournament, **kwargs) -> str:
    return reverse(name, kwargs={"slug": t.slug, **kwargs})


def again(client, address: str, response):
    """The same address asked again, naming the copy held, counting the queries."""
    with CaptureQueriesContext(connection) as queries:
        second = client.get(address, HTTP_IF_NONE_MATCH=response["ETag"])
    return second, len(queries)


def confirm(t: Tournament, table: int = 1) -> None:
    match = Match.objects.get(round__tournament=t, round__number=3, table=table)
    match.score_a, match.score_b, match.winner = 0, 7, "b"
    match.result_status = ResultStatus.CONFIRMED
    match.save()
    ResultFactory(match=match, score_a=0, score_b=7, state=ResultState.CONFIRMED)


def test_the_live_stamp_answers_304_without_a_query_until_a_result_moves_it(client, settings):
    settings.STANDINGS_STALE_SECONDS = 0  # the stamp is rebuilt at once, not up to a second late
    t = swiss_event(6, slug="stamp")
    address = reverse("live-json", args=[t.slug])
    first = client.get(address)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "no-cache" in first["Cache-Control"]  # kept by the browser, asked each time
    second, queries = again(client, address, first)
    assert second.status_code == 304 and second.content == b"" and queries == 0
    assert second["ETag"] == first["ETag"]
    confirm(t)
    third, _queries = again(client, address, first)
    assert third.status_code == 200 and third["ETag"] != first["ETag"]
    assert json.loads(third.content)["stamp"] != json.loads(first.content)["stamp"]


@pytest.mark.parametrize("name", ["public-pairings", "public-standings", "public-player"])
def test_an_unchanged_public_page_is_a_304_without_a_query_and_a_result_sends_it_anew(client, name, settings):
    settings.STANDINGS_STALE_SECONDS = 0  # the standings shown at once, not up to a second late
    t = swiss_event(6, slug="watch")
    kwargs = {"entry_id": t.entries.order_by("draw_number").first().pk} if name == "public-player" else {}
    address = url(name, t, **kwargs)
    first = client.get(address)
    assert first.status_code == 200 and "private" in first["Cache-Control"]  # it holds a CSRF token
    if name != "public-standings":  # the pages a player watches follow the live stamp
        assert 'id="live-refresh"' in first.content.decode()
    second, queries = again(client, address, first)
    assert second.status_code == 304 and second.content == b"" and queries == 0
    confirm(t)  # table 1: the first player's match, on every one of these pages
    third, _queries = again(client, address, first)
    assert third.status_code == 200 and third["ETag"] != first["ETag"]
    assert third.content != first.content


def test_a_visitor_without_the_csrf_cookie_gets_the_page_not_a_304(client, settings):
    """A kept copy's form token only works with its cookie: without it the page comes anew."""
    t = swiss_event(4, slug="cookie")
    address = url("public-pairings", t)
    first = client.get(address)
    client.cookies.pop(settings.CSRF_COOKIE_NAME)
    second = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second.content


def test_the_hall_screen_asked_again_is_a_304(client):
    t = swiss_event(6, slug="hall")
    address = url("hall-frame", t) + "?page=1&every=10"
    first = client.get(address)
    second, queries = again(client, address, first)
    assert second.status_code == 304 and queries == 0
    other = client.get(url("hall-frame", t) + "?page=2&every=10", HTTP_IF_NONE_MATCH=first["ETag"])
    assert other.status_code == 200  # another screen is another body


def test_a_signed_in_visitor_gets_the_page_rendered_for_them(client, django_user_model):
    """Pages said to someone signed in are rendered per request: no shared tag to match."""
    t = swiss_event(4, slug="signed")
    client.force_login(django_user_model.objects.create_user("watcher", password="x"))
    response = client.get(url("public-pairings", t))
    assert response.status_code == 200 and not response.has_header("ETag")
