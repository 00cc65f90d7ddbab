"""A draft (unpublished) round is invisible to anonymous visitors and players, and inert.

The demo Swiss gets a draft round 4 with one recognisable pairing: two players
who meet in no published round, at table 777. A crawl of every page reachable
by links (plus the REST API, live.json and the Excel export) must show neither
that pairing, nor its table, nor a "Round 4" heading — anonymously and as one
of the two players. The officials still see it on their own pages, and nobody
can report, confirm or dispute its match: the result workflow refuses.
"""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from openpyxl import load_workbook

from scoring import workflow
from scoring.models import Result, ResultState
from tests.factories import MatchFactory, ResultFactory, RoundFactory
from tests.zarik.test_crawl_no_500 import crawl
from tournaments.access.visibility import public_matches, public_rounds
from tournaments.models import Match, ResultStatus, Round, RoundStatus, Tournament
from tournaments.standings_service import load_event
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db

TABLE = 777
DRAFT_NUMBER = 4
ROUND_HEADINGS = (f"Тур {DRAFT_NUMBER}", f"Round {DRAFT_NUMBER}", f"round={DRAFT_NUMBER}")


def user(name: str):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def demo(shared_demo):
    """The demo loaded once for this module, not per test (tests/conftest.py: ``shared_demo``)."""


@pytest.fixture
def draft(demo):
    """Round 4 of the demo Swiss, generated but not published: one match at table 777."""
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    first = swiss.entries.select_related("player").order_by("draw_number").first()
    met = set()
    for a, b in Match.objects.filter(round__tournament=swiss).values_list("entry_a", "entry_b"):
        if first.pk in (a, b):
            met.update((a, b))
    other = (
        swiss.entries.select_related("player")
        .exclude(pk__in=met | {first.pk})
        .exclude(player__user__isnull=True)
        .order_by("draw_number")
        .first()
    )
    assert other is not None and first.player.user_id and other.player.user_id
    rnd = RoundFactory(tournament=swiss, number=DRAFT_NUMBER, draft=True)
    return MatchFactory(round=rnd, table=TABLE, entry_a=first, entry_b=other)


def names(match: Match) -> tuple[set[str], set[str]]:
    def forms(player) -> set[str]:
        return {n for n in (player.full_name, player.latin_name, player.last_name) if n}

    return forms(match.entry_a.player), forms(match.entry_b.player)


def leaks(text: str, match: Match, headings: bool = True) -> list[str]:
    """What of the draft is in ``text``: the pairing in one row, its table, a round-4 heading.

    ``headings=False`` for pages of other tournaments, which may well have a round 4.
    """
    found = []
    a_names, b_names = names(match)
    for row in re.split(r"<tr\b|\n|\},\{", text):
        if any(n in row for n in a_names) and any(n in row for n in b_names):
            found.append(f"pairing in one row: {row[:200]!r}")
    if re.search(rf">\s*{TABLE}\s*<|\b{TABLE}\b", re.sub(r'(?:csrf|token|value)="[^"]*"', "", text)):
        found.append(f"table {TABLE}")
    for heading in ROUND_HEADINGS if headings else ():
        if heading in text:
            found.append(f"heading {heading!r}")
    return found


API_URLS = [
    "/api/",
    "/api/tournaments/",
    f"/api/tournaments/{SWISS_SLUG}/",
    f"/api/tournaments/{SWISS_SLUG}/entries/",
    f"/api/tournaments/{SWISS_SLUG}/rounds/",
    "/api/matches/",
    f"/api/matches/?round__number={DRAFT_NUMBER}",
    f"/t/{SWISS_SLUG}/live.json",
]


def api_pages(client, match: Match) -> dict[str, tuple[int, str]]:
    out = {}
    urls = list(API_URLS)
    # Every page of the match list, and every match's detail.
    page = "/api/matches/"
    while page:
        response = client.get(page)
        data = response.json()
        results = data["results"] if isinstance(data, dict) and "results" in data else data
        urls.extend(f"/api/matches/{m['id']}/" for m in results)
        nxt = data.get("next") if isinstance(data, dict) else None
        page = nxt.replace("http://testserver", "") if nxt else None
    urls.append(f"/api/matches/{match.pk}/")
    for url in urls:
        response = client.get(url, HTTP_ACCEPT="application/json")
        out[url] = (response.status_code, response.content.decode())
    return out


def export_text(client) -> str:
    """Start the Excel export, follow it to the download and return every cell's text."""
    start = client.post(reverse("public-export", kwargs={"slug": SWISS_SLUG}), {"lang": "ru"})
    assert start.status_code == 302, start.status_code
    job = start["Location"].rstrip("/").split("/")[-1]
    status = client.get(reverse("public-export-status", kwargs={"slug": SWISS_SLUG, "job": job}))
    assert status.json()["state"] == "SUCCESS", status.json()
    download = client.get(status.json()["download"])
    workbook = load_workbook(io.BytesIO(b"".join(download.streaming_content)), read_only=True)
    lines = []
    for sheet in workbook.worksheets:
        lines.append(f"=== {sheet.title}")
        for row in sheet.iter_rows(values_only=True):
            lines.append("\t".join("" if v is None else str(v) for v in row))
    return "\n".join(lines)


def assert_nothing_of_the_draft(client, match: Match) -> None:
    pages = crawl(client)
    assert len(pages) > 10
    swiss_pages = [u for u, s in pages.items() if u.startswith(f"/t/{SWISS_SLUG}/") and s == 200]
    assert len(swiss_pages) > 5, pages
    problems = {}
    for url in pages:
        response = client.get(url)
        if "html" not in response.get("Content-Type", "") and "json" not in response.get(
            "Content-Type", ""
        ):
            continue
        ours = url.startswith(f"/t/{SWISS_SLUG}/")
        found = leaks(unescape(response.content.decode()), match, headings=ours)
        if found:
            problems[url] = found
    for url, (status, body) in api_pages(client, match).items():
        if url == f"/api/matches/{match.pk}/":
            assert status == 404, (url, status)
            continue
        assert status == 200, (url, status)
        found = leaks(body, match, headings=False)
        if url == f"/api/tournaments/{SWISS_SLUG}/rounds/":
            numbers = [r["number"] for r in json.loads(body)["results"]]  # paginated
            if DRAFT_NUMBER in numbers:
                found.append("draft round in the API")
        ids = {m.get("id") for m in _matches_in(json.loads(body))}
        if match.pk in ids:
            found.append("draft match id")
        if found:
            problems[url] = found
    workbook = export_text(client)
    # Planned rounds have columns in the standings sheet whatever is drafted: no heading check.
    found = leaks(workbook, match, headings=False)
    pairing_rows = False
    for line in workbook.split("\n"):
        cells = line.split("\t")
        if cells[0].startswith("=== "):
            pairing_rows = False
        elif cells[:2] == ["Тур", "Стол"]:
            pairing_rows = True
        elif pairing_rows and cells[0] == str(DRAFT_NUMBER):
            found.append(f"pairings sheet lists round {DRAFT_NUMBER}: {line[:120]!r}")
    assert "Тур\tСтол" in workbook, "the pairings sheet was not found"
    if found:
        problems["export"] = found
    draft_match = reverse("result-match", kwargs={"slug": SWISS_SLUG, "match_id": match.pk})
    assert client.get(draft_match).status_code in (302, 404)  # login first, or no such match
    assert not problems, problems


def _matches_in(data) -> list[dict]:
    """Every dict with an "id" and "table" anywhere in an API answer."""
    out = []
    if isinstance(data, dict):
        if "id" in data and "table" in data:
            out.append(data)
        for value in data.values():
            out.extend(_matches_in(value))
    elif isinstance(data, list):
        for value in data:
            out.extend(_matches_in(value))
    return out


def prime_cache_as_official(client, match: Match) -> None:
    """Officials visit the public pages first, so any fragment they could leak is cached."""
    client.force_login(user("organiser"))
    for name in ("public-overview", "public-pairings", "public-standings", "public-crosstable-rounds"):
        assert client.get(reverse(name, kwargs={"slug": SWISS_SLUG})).status_code == 200
    rounds = client.get(reverse("manage-rounds", kwargs={"slug": SWISS_SLUG}))
    assert rounds.status_code == 200
    client.logout()


@pytest.mark.long
def test_anonymous_crawl_shows_nothing_of_a_draft_round(client, draft):
    prime_cache_as_official(client, draft)
    assert_nothing_of_the_draft(client, draft)


@pytest.mark.long
def test_player_crawl_shows_nothing_of_their_own_draft_match(client, draft):
    prime_cache_as_official(client, draft)
    player = draft.entry_a.player.user
    client.force_login(player)
    assert_nothing_of_the_draft(client, draft)
    # "My match" is the published round's match, never the draft.
    mine = client.get(reverse("result-mine", kwargs={"slug": SWISS_SLUG}))
    assert mine.status_code == 302 and f"/match/{draft.pk}/" not in mine["Location"]


def test_the_signature_would_be_seen_once_published(client, draft):
    """The crawl's checks are sharp: publishing the round makes the pairing appear."""
    Round.objects.filter(pk=draft.round_id).update(status=RoundStatus.PUBLISHED)
    from tournaments.cache import invalidate

    invalidate(draft.round.tournament_id)
    body = unescape(client.get(reverse("public-pairings", kwargs={"slug": SWISS_SLUG})).content.decode())
    assert leaks(body, draft)


def test_officials_still_see_the_draft_on_their_pages(client, draft):
    client.force_login(user("organiser"))
    body = client.get(reverse("manage-rounds", kwargs={"slug": SWISS_SLUG})).content.decode()
    assert str(DRAFT_NUMBER) in body
    client.force_login(user("referee"))
    page = client.get(reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": draft.pk}))
    assert page.status_code == 200


def test_the_visibility_rule_and_the_event_snapshot_leave_drafts_out(draft):
    assert draft.round_id not in public_rounds().values_list("pk", flat=True)
    assert not public_matches().filter(pk=draft.pk).exists()
    event = load_event(draft.round.tournament)
    assert DRAFT_NUMBER not in event.round_numbers()
    assert all(p.id != draft.pk for p in event.pairings)


# --------------------------------------------------------------------------- inert


def _post_report(client, match, a, b, action="report"):
    data = {
        "version": Match.objects.get(pk=match.pk).version, "score_a": a, "score_b": b,
        "action": action, "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0",
    }
    return data


def test_player_page_cannot_report_or_confirm_on_a_draft_match(client, draft):
    client.force_login(draft.entry_a.player.user)
    url = reverse("result-match", kwargs={"slug": SWISS_SLUG, "match_id": draft.pk})
    assert client.get(url).status_code == 404
    assert client.post(url, _post_report(client, draft, 7, 3)).status_code == 404
    # A report that somehow exists cannot be confirmed either.
    pending = ResultFactory(
        match=draft, score_a=7, score_b=3, state=ResultState.REPORTED,
        reported_by=draft.entry_a.player.user,
    )
    client.force_login(draft.entry_b.player.user)
    confirm = reverse("result-confirm", kwargs={"slug": SWISS_SLUG, "match_id": draft.pk})
    response = client.post(confirm, {"result": pending.pk, "version": draft.version})
    assert response.status_code == 404
    dispute = reverse("result-dispute", kwargs={"slug": SWISS_SLUG, "match_id": draft.pk})
    response = client.post(dispute, {"result": pending.pk, "version": draft.version, "reason": "x"})
    assert response.status_code == 404
    draft.refresh_from_db()
    assert draft.result_status == ResultStatus.PENDING and draft.score_a is None
    assert Result.objects.get(pk=pending.pk).state == ResultState.REPORTED


def test_referee_page_is_refused_by_the_workflow(client, draft):
    client.force_login(user("referee"))
    url = reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": draft.pk})
    response = client.post(url, _post_report(client, draft, 7, 3, action="confirm"))
    assert response.status_code == 200  # the page again, with the workflow's refusal
    body = unescape(response.content.decode())
    assert "ещё не опубликован" in body or "has not been published" in body
    draft.refresh_from_db()
    assert draft.result_status == ResultStatus.PENDING and not draft.results.exists()


def test_api_cannot_report_or_confirm_on_a_draft_match(client, draft):
    client.force_login(user("referee"))
    report = client.post(
        f"/api/matches/{draft.pk}/report/",
        {"final": [7, 3], "version": draft.version, "confirm": True},
        content_type="application/json",
    )
    # issue 47: the referee sees the match in the draft round, so it is "not published yet", not "not found"
    assert report.status_code == 409 and report.json()["code"] == "workflow.draft_round"
    client.force_login(draft.entry_b.player.user)
    confirm = client.post(
        f"/api/matches/{draft.pk}/confirm/", {"result": 1, "version": draft.version},
        content_type="application/json",
    )
    assert confirm.status_code == 404
    assert not draft.results.exists()


def test_the_one_workflow_guard_refuses_every_action_on_a_draft_match(draft):
    referee = user("referee")
    player_a, player_b = draft.entry_a.player.user, draft.entry_b.player.user
    with pytest.raises(workflow.ResultError) as refused:
        workflow.submit_result(draft.pk, referee, version=draft.version, final=(7, 3), confirm=True)
    assert refused.value.code == "draft" and refused.value.problem.code == "workflow.draft_round"
    with pytest.raises(workflow.ResultError):
        workflow.submit_result(draft.pk, player_a, version=draft.version, final=(7, 3))
    pending = ResultFactory(
        match=draft, score_a=7, score_b=3, state=ResultState.REPORTED, reported_by=player_a
    )
    with pytest.raises(workflow.ResultError) as refused:
        workflow.confirm_result(draft.pk, pending.pk, player_b, version=draft.version)
    assert refused.value.code == "draft"
    with pytest.raises(workflow.ResultError) as refused:
        workflow.dispute_result(draft.pk, pending.pk, player_b, version=draft.version, reason="no")
    assert refused.value.code == "draft"
    draft.refresh_from_db()
    assert draft.result_status == ResultStatus.PENDING


def test_workflow_refusals_follow_the_readers_language(draft):
    from django.utils import translation

    with pytest.raises(workflow.ResultError) as refused:
        workflow.submit_result(draft.pk, user("referee"), version=draft.version, final=(7, 3))
    with translation.override("en"):
        assert refused.value.message.startswith("Round 4 has not been published")
    with translation.override("ru"):
        assert refused.value.message.startswith("Тур 4 ещё не опубликован")


def test_people_are_shown_by_their_players_names(client, demo):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    match = Match.objects.filter(round__tournament=swiss, round__number=3).exclude(
        Q(entry_b__isnull=True)
    ).select_related("entry_a__player__user", "entry_b__player__user").first()
    a, b = match.entry_a.player.user, match.entry_b.player.user
    result = workflow.submit_result(match.pk, a, version=match.version, final=(7, 3))
    match.refresh_from_db()
    workflow.dispute_result(match.pk, result.pk, b, version=match.version, reason="it was 3:7")
    dispute = match.disputes.get()
    client.force_login(user("organiser"))
    pages = [
        reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": match.pk}),
        reverse("dispute-list", kwargs={"slug": SWISS_SLUG}),
        reverse("dispute-detail", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk}),
        reverse("audit-log", kwargs={"slug": SWISS_SLUG}),
    ]
    for url in pages:
        body = unescape(client.get(url).content.decode())
        assert match.entry_a.player.full_name in body or match.entry_b.player.full_name in body, url
        for login in (a.username, b.username):
            assert f">{login}<" not in body and f"{login}," not in body, (url, login)
