"""Where PR shows: the match's analysis page and the viewer, the event's PR table, the profile,
the API — in RU and EN, with the privacy rule (the player and the officials; public when the
event or the player says so)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.analysis import services
from scoring.analysis.models import (
    AnalysisSettings,
    AnalysisState,
    MatchAnalysis,
    PlayerAnalysisChoice,
)
from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.access import private_links
from tournaments.models import AuditEntry, OfficialRole

from .conftest import ENGINE_NOISE, needs_gnubg
from .test_services import attach

pytestmark = pytest.mark.django_db


@pytest.fixture
def done(analysed_match, referee):
    """The committed 3-point match analysed by the real gnubg; the file's first player is A."""
    attach(analysed_match, referee)
    row = services.run_next()
    assert row.state == AnalysisState.DONE, row.problem
    return analysed_match


def _login(client, user):
    client.force_login(user)
    return client


@needs_gnubg
def test_match_page_shows_both_prs_and_worst_decisions_to_officials(client, done, referee):
    url = reverse("analysis-match", kwargs={"slug": done.round.tournament.slug, "match_id": done.pk})
    page = _login(client, referee).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "32.5" in page and "14.2" in page  # A (the file's first player) and B
    assert "Worst decisions" in page
    viewer = reverse("record-viewer", kwargs={"slug": done.round.tournament.slug, "match_id": done.pk})
    worst = MatchAnalysis.objects.get(match=done).report["worst"]["first"][0]
    assert f'{viewer}?ply={worst["ply"]}' in page and worst["position_id"] in page and worst["match_id"] in page
    ru = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Худшие решения" in ru


@needs_gnubg
def test_viewer_shows_pr_and_the_error_strip(client, done, referee):
    url = reverse("record-viewer", kwargs={"slug": done.round.tournament.slug, "match_id": done.pk})
    page = _login(client, referee).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "PR 32.5" in page and "PR 14.2" in page
    assert 'class="error-strip"' in page and "?ply=" in page


@needs_gnubg
def test_privacy_player_sees_own_pr_others_do_not_until_public(client, done):
    a_user = UserFactory()
    done.entry_a.player.user = a_user
    done.entry_a.player.save()
    url = reverse("analysis-match", kwargs={"slug": done.round.tournament.slug, "match_id": done.pk})
    mine = _login(client, a_user).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "32.5" in mine and "14.2" not in mine
    assert "shown only to the player and the officials" in mine
    client.logout()
    anonymous = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "32.5" not in anonymous and "14.2" not in anonymous
    # The opponent chose to show theirs; then the event publishes everyone's.
    PlayerAnalysisChoice.objects.create(player=done.entry_b.player, public=True)
    shown = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "14.2" in shown and "32.5" not in shown
    AnalysisSettings.objects.create(tournament=done.round.tournament, public=True)
    assert "32.5" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


@needs_gnubg
def test_pr_table_and_its_api(client, done, referee):
    tournament = done.round.tournament
    page = _login(client, referee).get(reverse("analysis-table", kwargs={"slug": tournament.slug}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Таблица PR" in page and "32,5" in page and "14,2" in page
    assert "14,2</strong>*" in page  # 41 decisions: a small sample
    data = client.get(f"/api/tournaments/{tournament.slug}/pr-table/").json()
    assert data["counts"]["done"] == 1 and data["rounds"] == [1]
    best = data["rows"][0]
    assert best["player"] == done.entry_b.player_id and best["pr"] == pytest.approx(14.23, abs=ENGINE_NOISE)
    assert best["decisions"] == 41 and best["small"] is True and best["rounds"] == {"1": best["pr"]}
    client.logout()
    hidden = client.get(f"/api/tournaments/{tournament.slug}/pr-table/").json()
    assert all(r["pr"] is None and r["visible"] is False for r in hidden["rows"])


@needs_gnubg
def test_match_api_and_rerun(client, done, referee):
    url = f"/api/matches/{done.pk}/analysis/"
    _login(client, referee)
    data = client.get(url).json()
    assert data["state"] == "done" and data["a"]["stats"]["pr"] == pytest.approx(32.49, abs=ENGINE_NOISE)
    assert data["b"]["stats"]["decisions"] == 41 and data["a"]["worst"][0]["position_id"]
    client.logout()
    anonymous = client.get(url).json()
    assert anonymous["a"]["stats"] is None and anonymous["a"]["visible"] is False
    assert anonymous["a"]["worst"] == []
    assert client.post(url).status_code in (401, 403)
    _login(client, referee)
    assert client.post(url).status_code == 202
    assert MatchAnalysis.objects.get(match=done).state == AnalysisState.QUEUED
    assert AuditEntry.objects.filter(action="analysis.rerun").exists()
    schema = client.get("/api/schema/").content.decode()
    assert "/api/matches/{id}/analysis/" in schema and "/api/tournaments/{slug}/pr-table/" in schema


@needs_gnubg
def test_profile_shows_pr_history(client, done, referee):
    player = done.entry_a.player
    page = _login(client, referee).get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "PR history" in page and done.round.tournament.name in page and "32.5" in page
    client.logout()
    assert "32,5" not in client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # The player shows it to everyone from their own profile.
    user = UserFactory()
    player.user = user
    player.save()
    _login(client, user)
    assert client.post(reverse("analysis-visibility", kwargs={"player_id": player.pk}), {"public": "on"}).status_code == 302
    client.logout()
    assert "32,5" in client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # Unticked: back to the default (only the player and the officials; a public event shows it).
    _login(client, user)
    client.post(reverse("analysis-visibility", kwargs={"player_id": player.pk}), {})
    client.logout()
    assert "32,5" not in client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    AnalysisSettings.objects.create(tournament=done.round.tournament, public=True)
    assert "32,5" in client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_without_gnubg_pages_say_unavailable_and_still_work(client, analysed_match, referee, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with override_settings(ANALYSIS_GNUBG_DIRS=[]):
        attach(analysed_match, referee)
        slug = analysed_match.round.tournament.slug
        _login(client, referee)
        page = client.get(reverse("analysis-match", kwargs={"slug": slug, "match_id": analysed_match.pk}), HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200 and "Analysis unavailable" in page.content.decode()
        viewer = client.get(reverse("record-viewer", kwargs={"slug": slug, "match_id": analysed_match.pk}), HTTP_ACCEPT_LANGUAGE="ru")
        assert viewer.status_code == 200 and "Анализ недоступен" in viewer.content.decode()
        table = client.get(reverse("analysis-table", kwargs={"slug": slug}), HTTP_ACCEPT_LANGUAGE="en")
        assert "Analysis unavailable" in table.content.decode()
        assert client.get(f"/api/matches/{analysed_match.pk}/analysis/").json()["available"] is False


def test_nardy_pages_say_there_is_no_engine(client):
    tournament = TournamentFactory(variant="long_nardy", match_length=3)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    page = client.get(reverse("analysis-match", kwargs={"slug": tournament.slug, "match_id": match.pk}), HTTP_ACCEPT_LANGUAGE="en")
    assert "No engine for this variant" in page.content.decode()
    ru = client.get(reverse("analysis-table", kwargs={"slug": tournament.slug}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "нет программы анализа" in ru


def test_organiser_sets_depth_and_publicity_audited(client):
    tournament = TournamentFactory()
    organiser = UserFactory()
    OfficialFactory(tournament=tournament, user=organiser, role=OfficialRole.ORGANISER)
    _login(client, organiser)
    url = reverse("analysis-settings", kwargs={"slug": tournament.slug})
    assert client.post(url, {"plies": "2", "public": "on"}).status_code == 302
    row = AnalysisSettings.objects.get(tournament=tournament)
    assert (row.plies, row.public) == (2, True)
    assert AuditEntry.objects.filter(action="analysis.settings").exists()
    bad = client.post(url, {"plies": "7"}, follow=True, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Choose the depth" in bad
    assert AnalysisSettings.objects.get(tournament=tournament).plies == 2
    referee = UserFactory()
    OfficialFactory(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
    client.force_login(referee)
    assert client.post(url, {"plies": "0"}).status_code == 403


def test_pr_table_costs_a_fixed_number_of_queries(client):
    """10 or 60 players: the same queries (the report itself is never read for the table)."""
    tournament = TournamentFactory()
    referee = UserFactory()
    OfficialFactory(tournament=tournament, user=referee)
    url = reverse("analysis-table", kwargs={"slug": tournament.slug})
    _login(client, referee)
    client.get(url)  # the per-process memos (tournament by slug, session) warm up first
    counts = []
    for players in (10, 60):
        rnd = RoundFactory(tournament=tournament, number=len(counts) + 1)
        for _ in range(players // 2):
            m = MatchFactory(round=rnd, entry_a=EntryFactory(tournament=tournament, player=PlayerFactory()), entry_b=EntryFactory(tournament=tournament, player=PlayerFactory()))
            MatchAnalysis.objects.create(match=m, tournament=tournament, state=AnalysisState.DONE, pr_a=5.5, pr_b=8.0, decisions_a=120, decisions_b=90)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_profile_pr_history_costs_the_same_queries_for_one_or_many_events(client):
    """A player's PR history over 1 or 6 events: the same queries (the rest of the profile has its own test)."""
    player = PlayerFactory()
    reader = UserFactory()
    counts = []
    for events in (1, 6):
        for _ in range(events if not counts else events - 1):
            tournament = TournamentFactory()
            OfficialFactory(tournament=tournament, user=reader)
            m = MatchFactory(round=RoundFactory(tournament=tournament), entry_a=EntryFactory(tournament=tournament, player=player))
            MatchAnalysis.objects.create(match=m, tournament=tournament, state=AnalysisState.DONE, pr_a=6.0, pr_b=7.0, decisions_a=120, decisions_b=110)
        reader = type(reader).objects.get(pk=reader.pk)  # no per-request memo carried over
        with CaptureQueriesContext(connection) as ctx:
            history = services.player_history(player, reader)
        counts.append(len(ctx.captured_queries))
        assert [h["pr"] for h in history] == [6.0] * events
    _login(client, reader)
    page = client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "PR history" in page and page.count('<td class="num">6.0</td>') == 6 and "pr-graph" in page
    assert counts[0] == counts[1], counts


@needs_gnubg
def test_a_player_by_private_link_sees_own_pr_on_the_viewer_and_the_analysis(client, done):
    token = private_links.token_for(done.entry_b)
    viewer = client.get(reverse("private-record-viewer", kwargs={"token": token, "match_id": done.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "PR 14.2" in viewer and "PR 32.5" not in viewer
    page = client.get(reverse("private-analysis-match", kwargs={"token": token, "match_id": done.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "14.2" in page and "32.5" not in page and "Worst decisions" in page


@needs_gnubg
def test_round_upload_page_queues_the_round_and_shows_its_progress(client, analysed_match, referee, django_capture_on_commit_callbacks):
    """The referee who attached the round's files analyses the round from the same page, RU and EN."""
    rnd = analysed_match.round
    MatchFactory(round=rnd)  # a pairing without a record: not counted, not queued
    attach(analysed_match, referee)  # queued by the attach hook (no worker in this test yet)
    slug = rnd.tournament.slug
    page_url = reverse("round-records", kwargs={"slug": slug, "round_id": rnd.pk})
    run_url = reverse("analysis-round", kwargs={"slug": slug, "round_id": rnd.pk})
    page = _login(client, referee).get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Analysis of round 1" in page and "Matches with an attached record: 1." in page
    assert "Analysed: 0, queued or running: 1, failed: 0." in page
    assert f'hx-get="{run_url}"' in page  # polls while the analysis waits
    assert f'action="{run_url}"' in page and "Analyse round 1" in page
    ru = client.get(page_url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Анализ тура 1" in ru and "Проанализировать тур 1" in ru
    assert "Проанализировано: 0, в очереди или идёт: 1, не удалось: 0." in ru

    with django_capture_on_commit_callbacks(execute=True):  # the queued task runs the real gnubg
        answer = client.post(run_url, {"back": "records"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 302 and answer["Location"] == page_url
    assert MatchAnalysis.objects.get(match=analysed_match).state == AnalysisState.DONE
    after = client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 matches queued, 0 cannot be analysed, 1 have no record." in after
    assert "Analysed: 1, queued or running: 0, failed: 0." in after and "hx-get" not in after.split("round-analysis")[1]
    poll = client.get(run_url, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true").content.decode()
    assert poll.startswith('<section id="round-analysis"') and "Analysed: 1" in poll
    opened = client.get(run_url)  # its address opened: the page the block belongs to, not a bare fragment
    assert opened.status_code == 302 and opened.url == page_url and "HX-Request" in opened["Vary"]
    assert AuditEntry.objects.filter(action="analysis.rerun", object_id=MatchAnalysis.objects.get(match=analysed_match).pk).exists()

    stranger = UserFactory()
    client.force_login(stranger)
    assert client.get(page_url).status_code in (403, 404) and client.get(run_url).status_code in (403, 404)


def test_round_upload_page_of_a_nardy_event_says_there_is_no_engine(client):
    tournament = TournamentFactory(variant="long_nardy", match_length=3)
    rnd = RoundFactory(tournament=tournament)
    referee = UserFactory()
    OfficialFactory(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
    page = _login(client, referee).get(
        reverse("round-records", kwargs={"slug": tournament.slug, "round_id": rnd.pk}), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Analysis of round 1" in page and "No engine for this variant" in page
    assert "Analyse round 1" not in page


@needs_gnubg
def test_viewer_draws_the_error_strip_as_a_bar_graph_with_a_text_alternative(client, done, referee):
    """One bar per listed error (A up, B down), no style attributes (CSP), a summary for screen readers."""
    import re

    strip = services.match_summary(done, referee, "en")["strip"]
    url = reverse("record-viewer", kwargs={"slug": done.round.tournament.slug, "match_id": done.pk})
    page = _login(client, referee).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    start = page.index('<figure class="error-graph">')  # after the board's own figure (issue 44)
    svg = page[start:page.index("</figure>", start)]
    assert 'role="img"' in svg and "<title id=" in svg and "style=" not in svg
    bars = re.findall(r'<rect class="bar err-(\w) side-(\w)" x="([\d.]+)" y="([\d.]+)" width="3" height="([\d.]+)">', svg)
    assert len(bars) == len(strip) and {b[1] for b in bars} == {e["side"] for e in strip}
    for (_cls, side, _x, y, height), e in zip(bars, strip, strict=True):
        # A's bars stand on the axis (y + height = 40), B's hang from it (y = 40); bigger error, taller bar.
        assert (float(y) + float(height) == 40) if side == "a" else float(y) == 40
        assert float(height) == pytest.approx(max(min(e["error"], 0.25) / 0.25 * 40, 1), abs=0.01)
    worst = max(strip, key=lambda e: e["error"])
    a_count = sum(1 for e in strip if e["side"] == "a")
    a_blunders = sum(1 for e in strip if e["side"] == "a" and e["error"] >= 0.08)
    assert f"{done.side_names('en')['a']}: {a_count} errors, {a_blunders} of them blunders." in svg
    assert f"is at move {worst['ply']}" in svg
    ru = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    ru_start = ru.index('<figure class="error-graph">')
    ru_svg = ru[ru_start:ru.index("</figure>", ru_start)]
    assert "Ошибки по ходам" in ru_svg and "Самая большая ошибка" in ru_svg
    assert not re.search(r'(x|y|height)="\d+,\d', ru_svg)  # geometry never localised


@needs_gnubg
def test_an_analysis_that_stopped_early_says_partial_beside_its_pr(client, analysed_match, referee):
    """A record attached despite an illegal move in game 2: gnubg reads game 2 only up to
    it. The PR is shown as partial on the match page, in the API, the viewer and the event's
    table (issue 46), with the depth beside each PR row."""
    from .conftest import NOISY3

    broken = NOISY3.replace(" 5) 42: 6/2 6/4 ", " 5) 42: 13/3 ", 1)
    assert broken != NOISY3
    attach(analysed_match, referee, text=broken)
    row = services.run_next()
    assert row.state == AnalysisState.DONE, row.problem
    stopped = row.report["partial"]
    assert stopped["game"] == 2 and stopped["games_read"] == 1 and stopped["read"] < stopped["of"]
    slug = analysed_match.round.tournament.slug
    page = _login(client, referee).get(
        reverse("analysis-match", kwargs={"slug": slug, "match_id": analysed_match.pk}), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Partial analysis." in page and "stopped reading the record in game 2" in page
    ru = client.get(reverse("analysis-match", kwargs={"slug": slug, "match_id": analysed_match.pk}),
                    HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Анализ неполный." in ru
    api = client.get(f"/api/matches/{analysed_match.pk}/analysis/").json()
    assert api["partial"]["game"] == 2
    viewer = client.get(reverse("record-viewer", kwargs={"slug": slug, "match_id": analysed_match.pk}),
                        HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "partial: up to game 2" in viewer
    table = client.get(f"/api/tournaments/{slug}/pr-table/").json()
    assert {r["partial"] for r in table["rows"]} == {1} and {r["depth"] for r in table["rows"]} == {"0"}
    html = client.get(reverse("analysis-table", kwargs={"slug": slug}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Depth (ply)" in html and "†" in html


@needs_gnubg
def test_the_pr_table_says_each_rows_depth_and_the_page_gnubgs_own_rate(client, done, referee):
    """A 0-ply match beside a 2-ply one: each row says its depth, not a bare PR; the match
    page shows gnubg's own error rate beside our PR (issue 46)."""
    tournament = done.round.tournament
    other = MatchFactory(round=done.round)
    other_row = MatchAnalysis.objects.create(
        match=other, tournament=tournament, state=AnalysisState.DONE, plies=2, pr_a=10.0, pr_b=20.0,
        decisions_a=50, decisions_b=50, report={"players": {}, "partial": None},
    )
    assert other_row.plies == 2
    done_row = MatchAnalysis.objects.get(match=done)
    assert done_row.plies == 0
    _login(client, referee)
    rows = client.get(f"/api/tournaments/{tournament.slug}/pr-table/").json()["rows"]
    assert sorted(r["depth"] for r in rows) == ["0", "0", "2", "2"]
    page = client.get(reverse("analysis-match", kwargs={"slug": tournament.slug, "match_id": done.pk}),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "GNU Backgammon&#x27;s error rate (mEMG)" in page or "GNU Backgammon's error rate (mEMG)" in page
    assert "65.0" in page  # gnubg's own error rate of A beside A's PR 32.5
