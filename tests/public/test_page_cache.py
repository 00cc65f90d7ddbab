"""The public pages' cache under load (issue 17): finer keys and one rebuild per change.

A confirmed result must be on the pairings of its round and on the standings at
once; a result elsewhere must not throw the other rounds' pairings away; and after
a change, visitors arriving together cause one rebuild, not one each.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from scoring import workflow
from scoring.models import ResultState
from tests.factories import OfficialFactory, ResultFactory, swiss_event
from tests.public.test_public_pages import count_queries, score_cells
from tournaments import cache as page_cache
from tournaments.models import Match, ResultStatus
from tournaments.public.frame import _row_html
from tournaments.rounds.flow import cached_live_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def pairings_url(t, number: int) -> str:
    return reverse("public-pairings", kwargs={"slug": t.slug}) + f"?round={number}"


def confirm(match: Match, a: int, b: int) -> None:
    match.score_a, match.score_b, match.winner = a, b, "a" if a > b else "b"
    match.result_status = ResultStatus.CONFIRMED
    match.save()
    ResultFactory(match=match, score_a=a, score_b=b, state=ResultState.CONFIRMED)


def test_a_result_rebuilds_its_rounds_pairings_and_the_standings_but_not_other_rounds(client):
    t = swiss_event(6, slug="finer")
    standings = reverse("public-standings", kwargs={"slug": t.slug})
    cached = {}  # queries of a page served from the cache (the pairings' live-refresh costs some)
    for address in (pairings_url(t, 1), pairings_url(t, 3), standings):
        client.get(address)
        cached[address] = count_queries(client, address)[0]
    before = client.get(standings).content

    confirm(Match.objects.get(round__tournament=t, round__number=3, table=1), 0, 7)

    cached_live_state(t)  # the live-refresh stamp follows every result (tested on its own)
    assert count_queries(client, pairings_url(t, 1))[0] == cached[pairings_url(t, 1)]  # kept
    queries, page = count_queries(client, pairings_url(t, 3))
    assert queries > cached[pairings_url(t, 3)] and "0:7" in score_cells(page)  # never stale
    queries, page = count_queries(client, standings)
    assert queries > cached[standings] and page.content != before


def test_a_report_rebuilds_its_rounds_pairings_for_the_badge_and_leaves_other_rounds_cached(client):
    """The pairings show each table's state (issue 44): a report shows "reported" at once (issue
    17 kept them cached through a report, when they showed a score only once confirmed); the
    other rounds' pairings stay cached, and the score appears with the confirmation."""
    t = swiss_event(6, slug="reported")
    referee = OfficialFactory(tournament=t, role="referee").user
    for number in (1, 3):
        client.get(pairings_url(t, number))
    cached = {n: count_queries(client, pairings_url(t, n))[0] for n in (1, 3)}
    match = Match.objects.get(round__tournament=t, round__number=3, table=1)

    workflow.submit_result(match.pk, referee, version=match.version, final=(2, 5))
    cached_live_state(t)  # the live-refresh stamp follows every report (tested on its own)
    assert count_queries(client, pairings_url(t, 1))[0] == cached[1]  # another round: kept
    queries, page = count_queries(client, pairings_url(t, 3))
    assert queries > cached[3] and 'table-state reported' in page.content.decode()

    match.refresh_from_db()
    workflow.submit_result(match.pk, referee, version=match.version, final=(2, 5), confirm=True)
    cached_live_state(t)
    queries, page = count_queries(client, pairings_url(t, 3))
    assert "2:5" in score_cells(page)  # the confirmation: rebuilt at once


def standings_table(page) -> str:
    return re.search(r'<table class="grid standings">.*?</table>', page.content.decode(), re.S).group(0)


def test_under_a_stream_of_results_the_standings_are_rebuilt_at_most_once_a_second(
    client, settings, monkeypatch
):
    settings.STANDINGS_STALE_SECONDS = 1.0
    t = swiss_event(6, slug="stream")
    standings = reverse("public-standings", kwargs={"slug": t.slug})
    before = standings_table(client.get(standings))
    built = page_cache.time.time()

    confirm(Match.objects.get(round__tournament=t, round__number=3, table=1), 0, 7)
    monkeypatch.setattr(page_cache.time, "time", lambda: built + 0.5)
    queries, page = count_queries(client, standings)
    assert standings_table(page) == before  # built half a second ago: served as it is, no rebuild
    assert "0:7" in score_cells(client.get(pairings_url(t, 3)))  # the pairings never wait

    monkeypatch.setattr(page_cache.time, "time", lambda: built + 1.1)
    rebuilt, page = count_queries(client, standings)
    assert rebuilt > queries and standings_table(page) != before  # a second later: the result is there

    structural = Match.objects.get(round__tournament=t, round__number=1, table=1).entry_a.player
    structural.last_name = "Переименованный"
    structural.save()  # not a result: a renamed player is never shown late
    monkeypatch.setattr(page_cache.time, "time", lambda: built + 1.2)
    assert "Переименованный" in client.get(standings).content.decode()


def test_publishing_or_renaming_still_rebuilds_every_pairings_page(client):
    t = swiss_event(6, slug="structure")
    client.get(pairings_url(t, 1))
    cached = count_queries(client, pairings_url(t, 1))[0]
    page_cache.invalidate(t.pk)  # what an entry, round or tournament change does
    assert count_queries(client, pairings_url(t, 1))[0] > cached


class SlowBuild:
    """A build that counts its calls and, when asked, holds until released."""

    def __init__(self, value: str, hold: bool = False):
        self.value, self.calls = value, 0
        self.started, self.release = threading.Event(), threading.Event()
        if not hold:
            self.release.set()

    def __call__(self) -> str:
        self.calls += 1
        self.started.set()
        assert self.release.wait(5)
        return self.value


def in_thread(fn, *args, **kwargs) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def run() -> None:
        with translation.override("ru"):
            out["value"] = fn(*args, **kwargs)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def fragment(build, stale_ok: bool = False) -> str:
    with translation.override("ru"):
        return page_cache.cached_fragment(1, "page", build, stale_ok=stale_ok)


def test_two_visitors_after_a_change_cause_one_rebuild():
    first = SlowBuild("new", hold=True)
    thread, out = in_thread(fragment, first)
    assert first.started.wait(5)  # the first visitor is building
    second = SlowBuild("second")
    threading.Timer(0.1, first.release.set).start()
    assert fragment(second) == "new"  # waited for the first visitor's build
    thread.join(5)
    assert out["value"] == "new" and first.calls == 1 and second.calls == 0


def test_standings_show_the_previous_version_only_while_the_new_one_is_built():
    assert fragment(SlowBuild("v1"), stale_ok=True) == "v1"
    page_cache.invalidate_results(1, None)  # a confirmation
    builder = SlowBuild("v2", hold=True)
    thread, out = in_thread(fragment, builder, stale_ok=True)
    assert builder.started.wait(5)
    assert fragment(SlowBuild("never"), stale_ok=True) == "v1"  # someone is building v2
    builder.release.set()
    thread.join(5)
    assert out["value"] == "v2"
    assert fragment(SlowBuild("never"), stale_ok=True) == "v2"
    # Nobody building: a reader after a change always builds the new version itself.
    page_cache.invalidate_results(1, None)
    assert fragment(SlowBuild("v3"), stale_ok=True) == "v3"


def test_no_previous_version_after_more_than_results_changed():
    assert fragment(SlowBuild("v1"), stale_ok=True) == "v1"
    page_cache.invalidate(1)  # an entry, a round or the tournament changed: not only results
    builder = SlowBuild("v2", hold=True)
    thread, _out = in_thread(fragment, builder, stale_ok=True)
    assert builder.started.wait(5)
    threading.Timer(0.1, builder.release.set).start()
    assert fragment(SlowBuild("never"), stale_ok=True) == "v2"  # waited, never v1
    thread.join(5)


def test_a_builder_that_died_keeps_readers_waiting_at_most_a_moment(monkeypatch):
    monkeypatch.setattr(page_cache, "BUILD_WAIT_SECONDS", 0.2)
    with translation.override("ru"):
        key = page_cache.fragment_key(1, "page")
    cache.add(f"{key}:building", 1, 60)  # its builder's process was killed
    assert fragment(SlowBuild("built")) == "built"


def test_anonymous_visitors_share_the_framed_page_but_each_gets_a_working_csrf_token():
    """The frame around a cached fragment is kept per process for visitors with no session;
    the language form still carries each visitor's own CSRF token, and it is accepted."""
    from django.test import Client

    t = swiss_event(6, slug="framed")
    first, second = (Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en") for _ in range(2))
    url = pairings_url(t, 1)
    pages = [c.get(url) for c in (first, second)]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', p.content.decode()).group(1) for p in pages]
    assert tokens[0] != tokens[1] and "zarik-csrf-slot" not in pages[1].content.decode()
    assert [p.content.decode().replace(tok, "") for p, tok in zip(pages, tokens, strict=True)][0] == (
        pages[1].content.decode().replace(tokens[1], "")
    )  # the same page but for the token
    switched = second.post(reverse("set_language"), {"language": "ru", "next": url, "csrfmiddlewaretoken": tokens[1]})
    assert switched.status_code == 302  # the token the kept page carried is the visitor's own
    assert '<html lang="ru">' in second.get(url).content.decode()  # kept per language
    assert '<html lang="en">' in first.get(url).content.decode()


def test_a_kept_anonymous_page_follows_results_and_is_never_shown_to_a_logged_in_user(client):
    t = swiss_event(6, slug="framed-live")
    url = pairings_url(t, 3)
    client.get(url)
    confirm(Match.objects.get(round__tournament=t, round__number=3, table=1), 0, 7)
    assert "0:7" in score_cells(client.get(url))  # a new fragment: a new page, never the kept one
    user = OfficialFactory(tournament=t, role="referee").user
    client.force_login(user)
    assert user.username in client.get(url).content.decode()  # the personal header, not the kept page


def test_a_pairings_rebuild_renders_again_only_the_rows_whose_text_changed(client):
    """Rows are remembered by what they show: a rebuild after one confirmation renders that
    row again, not the others (issue 17); a reported row shows its state (issue 44), so it was
    rendered again when the report was shown."""
    t = swiss_event(8, slug="rows-kept")
    referee = OfficialFactory(tournament=t, role="referee").user
    client.get(pairings_url(t, 3))
    reported, confirmed = Match.objects.filter(round__tournament=t, round__number=3).order_by("table")[:2]
    workflow.submit_result(reported.pk, referee, version=reported.version, final=(2, 5))
    misses = _row_html.cache_info().misses
    assert "table-state reported" in client.get(pairings_url(t, 3)).content.decode()
    assert _row_html.cache_info().misses == misses + 1  # the reported row only
    misses += 1

    workflow.submit_result(confirmed.pk, referee, version=confirmed.version, final=(5, 1), confirm=True)
    page = client.get(pairings_url(t, 3))

    assert "5:1" in score_cells(page)
    assert _row_html.cache_info().misses == misses + 1  # the confirmed row only


def test_a_request_reading_each_version_once_still_sees_its_own_change():
    """``read_once`` (a watcher's poll): a version read once serves the request, but a change the
    request itself makes is seen at once."""

    @page_cache.read_once
    def view() -> tuple[int, int, int]:
        first = page_cache.version(7)
        again = page_cache.version(7)
        page_cache.bump(7)
        return first, again, page_cache.version(7)

    first, again, after = view()
    assert first == again and after != first
