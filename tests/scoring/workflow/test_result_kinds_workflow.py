"""Forfeits, lateness, withdrawals, disqualification and half points through the one workflow.

The director works at the desk (``desk/match/<id>/``, the desk's entry forms), the API does
the same through ``/api/matches/<id>/settle/`` and ``lateness/``; every path goes through
``scoring.workflow`` and the rules core, and lands in standings, crosstables, exports and
ratings by the documented convention.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring import workflow
from scoring.models import Result, ResultState
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import (
    AuditEntry,
    EntryStatus,
    Match,
    OfficialRole,
    RatingChange,
    ResultStatus,
)
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def event(director):
    t = TournamentFactory(
        late_penalty_minutes=5, late_forfeit_minutes=20, move_seconds=45,
        clock_minutes_per_point=2, clock_delay_seconds=12,
    )
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    return t


def pair(t, number=1, **kw):
    rnd = RoundFactory(tournament=t, number=number)
    a, b = enter(t, [{}, {}], first_number=None)
    return MatchFactory(round=rnd, entry_a=a, entry_b=b, table=1, **kw)


def test_the_director_records_a_forfeit_at_the_desk_and_it_is_not_rated(client, event, director):
    match = pair(event)
    client.force_login(director)
    url = reverse("desk-match", kwargs={"slug": event.slug, "match_id": match.pk})
    page = client.get(url)
    assert page.status_code == 200 and "Результат без игры" in page.content.decode()
    response = client.post(url, {"action": "kind", "version": match.version, "kind": "forfeit",
                                 "winner": "b", "reason": "A did not come"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.winner) == (0, 5, "b")
    assert match.result_kind == "forfeit" and match.result_status == ResultStatus.CONFIRMED
    assert Result.objects.get(match=match, state=ResultState.CONFIRMED).kind == "forfeit"
    assert not RatingChange.objects.filter(match=match).exists()  # NOT_RATED: forfeit
    assert AuditEntry.objects.filter(action="result.forfeit", reason="A did not come").exists()
    ev = load_event(event)
    rows = {r.player.id: r for r in ev.standings[""].rows}
    assert rows[match.entry_b_id].values["wins"] == 1


def test_a_forfeit_without_a_winner_is_refused_with_the_input_kept(client, event, director):
    match = pair(event)
    client.force_login(director)
    url = reverse("desk-match", kwargs={"slug": event.slug, "match_id": match.pk})
    response = client.post(
        url, {"action": "kind", "version": match.version, "kind": "forfeit", "reason": "no-show"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "needs the player who wins it" in body and "no-show" in body
    match.refresh_from_db()
    assert match.result_status == ResultStatus.PENDING


def test_lateness_gives_penalty_points_then_the_result_must_start_from_them(event, director):
    match = pair(event)
    workflow.apply_lateness(match.pk, director, version=match.version, late_side="a", minutes=11)
    match.refresh_from_db()
    assert (match.start_a, match.start_b) == (0, 2)
    assert AuditEntry.objects.filter(action="match.lateness").exists()
    with pytest.raises(workflow.InvalidResult) as refused:
        workflow.submit_result(match.pk, director, version=match.version, final=(5, 1), confirm=True)
    assert [p.code for p in refused.value.problems] == ["match.below_start"]
    workflow.submit_result(match.pk, director, version=match.version, final=(5, 2), confirm=True)
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.winner) == (5, 2, "a")


def test_lateness_past_the_forfeit_time_loses_the_match(event, director):
    match = pair(event)
    workflow.apply_lateness(match.pk, director, version=match.version, late_side="b", minutes=25)
    match.refresh_from_db()
    assert (match.result_kind, match.winner, match.score_a, match.score_b) == ("forfeit", "a", 5, 0)


def test_the_api_settles_and_applies_lateness_with_the_same_service(client, event, director):
    client.force_login(director)
    match = pair(event)
    late = client.post(f"/api/matches/{match.pk}/lateness/",
                       {"late_side": "b", "minutes": 6, "version": match.version},
                       content_type="application/json")
    assert late.status_code == 200, late.content
    assert (late.json()["start_a"], late.json()["start_b"]) == (1, 0)
    settled = client.post(
        f"/api/matches/{match.pk}/settle/",
        {"kind": "time_forfeit", "winner": "b", "played": [3, 2], "reason": "flag fell",
         "version": late.json()["version"]},
        content_type="application/json",
    )
    assert settled.status_code == 201, settled.content
    data = settled.json()
    assert (data["score_a"], data["score_b"], data["result_kind"]) == (3, 5, "time_forfeit")
    refused = client.post(
        f"/api/matches/{pair(event, 2).pk}/settle/",
        {"kind": "double_forfeit", "winner": "a", "reason": "x", "version": 1},
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400 and "has no winner" in refused.content.decode()


def test_withdrawing_with_a_pending_match_forfeits_it_or_voids_it(client, event, director):
    first, second = pair(event), pair(event, 2)
    client.force_login(director)
    leaving = first.entry_a
    client.post(reverse("desk-entry", kwargs={"slug": event.slug, "entry_id": leaving.pk,
                                              "action": "withdraw"}),
                {"reason": "ill", "settle": "forfeit"})
    first.refresh_from_db()
    leaving.refresh_from_db()
    assert leaving.status == EntryStatus.WITHDRAWN
    assert (first.result_kind, first.winner) == ("forfeit", "b")
    # The entries page voids instead, by the director's choice.
    other = second.entry_b
    client.post(reverse("manage-entry", kwargs={"slug": event.slug, "entry_id": other.pk}),
                {"action": "withdraw", "settle": "void", "reason": "left"})
    second.refresh_from_db()
    assert second.result_kind == "void" and second.score_a is None
    ev = load_event(event)
    assert all(m.kind != "void" or m.score_a == 0 for m in ev.matches)
    assert ev.standings[""].row(second.entry_a_id).values["wins"] == 0


def test_a_withdrawal_keeps_past_results_and_a_bad_choice_is_refused(client, event, director):
    done = pair(event, confirmed=True)
    client.force_login(director)
    response = client.post(
        f"/api/tournaments/{event.slug}/entries/{done.entry_a_id}/withdraw/",
        {"reason": "gone", "settle": "later"}, content_type="application/json",
    )
    assert response.status_code == 400
    response = client.post(
        f"/api/tournaments/{event.slug}/entries/{done.entry_a_id}/withdraw/",
        {"reason": "gone", "settle": "void"}, content_type="application/json",
    )
    assert response.status_code == 200, response.content
    done.refresh_from_db()
    assert (done.score_a, done.score_b, done.result_kind) == (5, 2, "played")


def test_disqualification_voids_past_results_forfeits_the_rest_and_is_marked(client, event, director):
    past = pair(event, confirmed=True)
    rnd2 = RoundFactory(tournament=event, number=2)
    cheat = past.entry_a
    opponent = enter(event, [{}], first_number=None)[0]
    pending = MatchFactory(round=rnd2, entry_a=opponent, entry_b=cheat, table=1)
    client.force_login(director)
    client.post(
        reverse("desk-entry", kwargs={"slug": event.slug, "entry_id": cheat.pk, "action": "remove"}),
        {"how": "disqualified", "past": "void", "settle": "forfeit", "reason": "prompting"},
    )
    cheat.refresh_from_db()
    past.refresh_from_db()
    pending.refresh_from_db()
    assert (cheat.status, cheat.removal) == (EntryStatus.WITHDRAWN, "disqualified")
    assert past.result_kind == "void"
    assert (pending.result_kind, pending.winner) == ("forfeit", "a")
    assert AuditEntry.objects.filter(action="entry.disqualify", reason="prompting").exists()
    standings = client.get(reverse("public-standings", kwargs={"slug": event.slug}),
                           HTTP_ACCEPT_LANGUAGE="en")
    assert "(disqualified)" in standings.content.decode()


def test_half_points_in_a_fixed_games_match_are_stored_exactly_and_shown_as_halves(
    director, django_capture_on_commit_callbacks
):
    t = TournamentFactory(match_format="games", fixed_games=4, match_length=None,
                          scoring="long_nardy", variant="long_nardy", draw_value=Decimal("0.5"),
                          tiebreaks=["wins", "points"])
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    match = pair(t)
    games = [{"winner": "a", "kind": "oyun"}, {"kind": "draw"}, {"winner": "b", "kind": "oyun"},
             {"winner": "a", "kind": "mars"}]
    with django_capture_on_commit_callbacks(execute=True):  # ratings follow the commit
        workflow.submit_result(match.pk, director, version=match.version, games=games, confirm=True)
    match = Match.objects.get(pk=match.pk)
    assert match.score_a == Decimal("3.5") and match.score_b == Decimal("1.5")
    assert match.winner == "a"
    rated = RatingChange.objects.get(match=match, player=match.entry_a.player)
    assert (rated.score_for, rated.score_against, rated.result) == (
        Decimal("3.5"), Decimal("1.5"), Decimal("1")
    )
    ev = load_event(t)
    assert ev.pairings[0].score_text == "3½:1½"
    row = ev.standings[""].row(match.entry_a_id)
    assert row.values.get("wins") == 1
    out = io.BytesIO()
    build_workbook(t, out, "en")
    wb = load_workbook(io.BytesIO(out.getvalue()))
    pairings = [c for r in wb["Pairings"].iter_rows(values_only=True) for c in r]
    assert "3½:1½" in pairings
    standings = [c for r in wb["Standings"].iter_rows(values_only=True) for c in r]
    assert 3.5 in standings and 1.5 in standings  # numbers in Excel, not text
    crosstable = [c for r in wb["Crosstable"].iter_rows(values_only=True) for c in r]
    assert any(isinstance(c, str) and "3½:1½" in c for c in crosstable)


def test_time_control_on_the_score_sheet_and_the_pairings(client, event, director):
    match = pair(event)
    client.force_login(director)
    sheets = client.get(reverse("print-round-sheets", kwargs={"slug": event.slug, "round_id": match.round_id}),
                        HTTP_ACCEPT_LANGUAGE="en")
    body = sheets.content.decode()
    assert "45 s a move; clock: 2 min a point = 10 min each, delay 12 s" in body
    pairings = client.get(reverse("public-pairings", kwargs={"slug": event.slug}),
                          HTTP_ACCEPT_LANGUAGE="en")
    assert "45 s a move" in pairings.content.decode()


def test_contradicting_time_settings_are_refused_on_the_settings_page(client, event, director):
    event.clock_increment_seconds = 5
    with pytest.raises(Exception) as refused:
        event.full_clean()
    assert "delay or with an increment" in str(refused.value) or "задержкой" in str(refused.value)


def test_a_time_forfeit_is_rated_as_a_win_for_the_player_the_clock_named(
    event, director, django_capture_on_commit_callbacks
):
    match = pair(event)
    with django_capture_on_commit_callbacks(execute=True):  # ratings follow the commit
        workflow.record_kind_result(
            match.pk, director, version=match.version, kind="time_forfeit", winner="b",
            played=(4, 1), reason="flag fell",
        )
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.winner) == (4, 5, "b")
    change = RatingChange.objects.get(match=match, player=match.entry_b.player)
    assert change.result == 1


def test_a_settled_match_cannot_be_settled_again_and_void_frees_the_pairing(event, director):
    match = pair(event)
    workflow.record_kind_result(match.pk, director, version=match.version, kind="void", reason="x")
    match.refresh_from_db()
    assert (match.result_kind, match.result_status, match.score_a) == ("void", "confirmed", None)
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_kind_result(
            match.pk, director, version=match.version, kind="forfeit", winner="a", reason="y"
        )
    assert refused.value.problem.code == "workflow.kind_settled"


def test_the_desk_links_each_open_table_and_offers_the_leaving_choices(client, event, director):
    match = pair(event)
    client.force_login(director)
    page = client.get(reverse("desk", kwargs={"slug": event.slug}), HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert reverse("desk-match", kwargs={"slug": event.slug, "match_id": match.pk}) in body
    assert 'name="settle"' in body and "Disqualify or remove" in body
    assert f'for="rm-past-{match.entry_a_id}"' in body


def test_the_director_installs_clocks_on_one_match_and_the_sheet_shows_them(client, event, director):
    event.clock_minutes_per_point = None
    event.clock_delay_seconds = 0
    event.save()
    match = pair(event)
    client.force_login(director)
    url = reverse("desk-match", kwargs={"slug": event.slug, "match_id": match.pk})
    bad = client.post(url, {"action": "clock", "version": match.version, "minutes_per_point": 2,
                            "delay_seconds": 10, "increment_seconds": 5}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and "not both" in bad.content.decode()
    ok = client.post(url, {"action": "clock", "version": match.version, "minutes_per_point": 3,
                           "increment_seconds": 5, "reason": "slow play"})
    assert ok.status_code == 302
    match.refresh_from_db()
    assert (match.clock_minutes_per_point, match.clock_increment_seconds) == (3, 5)
    assert AuditEntry.objects.filter(action="match.clock", reason="slow play").exists()
    sheet = client.get(reverse("print-match-sheet", kwargs={"slug": event.slug, "match_id": match.pk}),
                       HTTP_ACCEPT_LANGUAGE="en")
    assert "clock: 3 min a point = 15 min each, +5 s a move" in sheet.content.decode()
    off = client.post(f"/api/matches/{match.pk}/clock/",
                      {"minutes_per_point": None, "version": match.version},
                      content_type="application/json")
    assert off.status_code == 200 and off.json()["clock_minutes_per_point"] is None
