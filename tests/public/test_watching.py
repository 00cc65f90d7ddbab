"""Thousands of phones watching an event (issue 50): every poll of a public page or of the live
stamp names what it holds (``If-None-Match``) and gets a 304 without a body, and without a
query, while nothing it shows changed; a change answers the new page at once."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import ResultState
from tests.factories import ResultFactory, swiss_event
from tournaments.models import Match, ResultStatus, Tournament
from zarik import release

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def url(name: str, t: Tournament, **kwargs) -> str:
    return reverse(name, kwargs={"slug": t.slug, **kwargs})


def again(client, address: str, response, **headers):
    """The same address asked again, naming the copy held, counting the queries."""
    with CaptureQueriesContext(connection) as queries:
        second = client.get(address, HTTP_IF_NONE_MATCH=response["ETag"], **headers)
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
    first = client.get(address, HTTP_HX_REQUEST="true")  # the hall page's htmx asks for its next screen
    second, queries = again(client, address, first, HTTP_HX_REQUEST="true")
    assert second.status_code == 304 and queries == 0
    other = client.get(url("hall-frame", t) + "?page=2&every=10", HTTP_IF_NONE_MATCH=first["ETag"],
                       HTTP_HX_REQUEST="true")  # fmt: skip
    assert other.status_code == 200  # another screen is another body


def test_a_signed_in_visitor_gets_the_page_rendered_for_them(client, django_user_model):
    """Pages said to someone signed in are rendered per request: no shared tag to match."""
    t = swiss_event(4, slug="signed")
    client.force_login(django_user_model.objects.create_user("watcher", password="x"))
    response = client.get(url("public-pairings", t))
    assert response.status_code == 200 and not response.has_header("ETag")


def score(t: Tournament, a: int, b: int) -> None:
    """Table 1 of round 3 confirmed (or corrected) to ``a``:``b``."""
    match = Match.objects.get(round__tournament=t, round__number=3, table=1)
    match.score_a, match.score_b, match.winner = a, b, "a" if a > b else "b"
    match.result_status = ResultStatus.CONFIRMED
    match.save()


WATCHED = [
    ("public-pairings", {}, "23:21", "21:23"),
    ("public-player", {}, "23:21", "21:23"),  # the first player's page: table 1's side a
    ("hall-frame", {"HTTP_HX_REQUEST": "true"}, "23 : 21", "21 : 23"),
]


@pytest.mark.parametrize(("name", "headers", "first_score", "corrected"), WATCHED)
def test_a_confirmed_and_then_corrected_result_gives_a_new_tag_and_the_new_score(
    client, settings, name, headers, first_score, corrected
):
    """A watcher holding a page is never told it is current once what it shows has changed:
    each change (a confirmation, a correction) is a 200 with the new score and a new tag."""
    settings.STANDINGS_STALE_SECONDS = 0
    t = swiss_event(6, slug="changed")
    kwargs = {"entry_id": Match.objects.get(round__tournament=t, round__number=3, table=1).entry_a_id}
    address = url(name, t, **(kwargs if name == "public-player" else {}))
    if name == "hall-frame":
        address += "?page=1&every=10"
    held = client.get(address, **headers)
    assert held.status_code == 200 and first_score not in held.content.decode()
    tags = {held["ETag"]}
    for shown in (first_score, corrected):
        score(t, *((23, 21) if shown == first_score else (21, 23)))
        answer = client.get(address, HTTP_IF_NONE_MATCH=held["ETag"], **headers)
        assert answer.status_code == 200 and shown in answer.content.decode()
        assert answer["ETag"] not in tags
        tags.add(answer["ETag"])
        held = answer
        assert client.get(address, HTTP_IF_NONE_MATCH=held["ETag"], **headers).status_code == 304


def test_a_304_does_not_read_the_page(client, monkeypatch):
    """Its tag comes from the versions the page is built from: the page itself (its cached copy,
    or a rebuild) is read only for a 200 (issue 50: a 304 cost as much as its 200)."""
    from tournaments import cache as page_cache

    t = swiss_event(6, slug="cheap")
    address = url("public-pairings", t)
    first = client.get(address)
    read = []
    original = page_cache.fragment_at
    monkeypatch.setattr(page_cache, "fragment_at", lambda keys, *a, **k: read.append(keys[0]) or original(keys, *a, **k))
    assert client.get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert [key for key in read if ":pairings:" in key] == []
    assert client.get(address).status_code == 200  # a new visitor: the page is read
    assert [key for key in read if ":pairings:" in key]


def test_the_tag_differs_by_language_and_a_signed_in_visitor_gets_the_page(client, django_user_model):
    t = swiss_event(4, slug="tongues")
    address = url("public-pairings", t)
    english = client.get(address, HTTP_ACCEPT_LANGUAGE="en")
    russian = client.get(address, HTTP_ACCEPT_LANGUAGE="ru")
    assert english["ETag"] != russian["ETag"]
    asked = client.get(address, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=english["ETag"])
    assert asked.status_code == 200 and asked["ETag"] == russian["ETag"]
    hall = url("hall-frame", t) + "?page=1&every=10"
    en_hall = client.get(hall, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")
    ru_hall = client.get(hall, HTTP_ACCEPT_LANGUAGE="ru", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=en_hall["ETag"])
    assert ru_hall.status_code == 200 and ru_hall["ETag"] != en_hall["ETag"]
    client.force_login(django_user_model.objects.create_user("insider", password="x"))
    signed_in = client.get(address, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=russian["ETag"])
    assert signed_in.status_code == 200 and signed_in.content  # the page said to them, not the anonymous copy


def test_standings_served_a_moment_late_keep_the_tag_of_what_they_show(client, settings):
    """Under a stream of results the standings may lag by up to STANDINGS_STALE_SECONDS: the
    previous table is then served with its own tag, never with the new one."""
    settings.STANDINGS_STALE_SECONDS = 60
    t = swiss_event(6, slug="lagging")
    address = url("public-standings", t)
    before = client.get(address)
    score(t, 23, 21)
    lagging = client.get(address)
    assert shown(lagging) == shown(before) and lagging["ETag"] == before["ETag"]
    settings.STANDINGS_STALE_SECONDS = 0
    fresh = client.get(address, HTTP_IF_NONE_MATCH=before["ETag"])
    assert fresh.status_code == 200 and shown(fresh) != shown(before) and fresh["ETag"] != before["ETag"]


def shown(response) -> str:
    """The page but its form's token (masked anew in every answer)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


@pytest.fixture
def releases():
    """Each release named by ``ZARIK_RELEASE`` is read afresh, and the real one after the test."""
    yield release.release.cache_clear
    release.release.cache_clear()


def test_an_upgrade_sends_every_kept_page_anew(client, monkeypatch, releases):
    """A new release's templates and views never serve, nor tag as current, a page the old
    release rendered and kept: the page's key and ETag carry the release."""
    t = swiss_event(6, slug="upgrade")
    address = url("public-pairings", t)
    monkeypatch.setenv("ZARIK_RELEASE", "old-release")
    releases()
    first = client.get(address)
    kept, _queries = again(client, address, first)
    assert kept.status_code == 304
    monkeypatch.setenv("ZARIK_RELEASE", "new-release")
    releases()
    upgraded, queries = again(client, address, first)
    assert upgraded.status_code == 200 and upgraded["ETag"] != first["ETag"]
    assert queries > 0  # rendered by the new release, not read from the old one's copy
