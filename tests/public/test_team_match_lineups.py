"""Issue 35, Scheveningen seams: a withdrawn member is never seated, line-ups are fixed once the
schedule is drawn from the boards, the pairings (page and hall display) name each player's team,
and the individual crosstable lists team A by board, then team B."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
)
from tests.public.test_team_match import _event, _text
from tournaments.entries import status as entry_status
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import (
    Official,
    OfficialRole,
    ResultKind,
    ResultStatus,
    RoundStatus,
    Seeding,
    TeamMember,
)
from tournaments.rounds import pairing_manager as pm

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def organiser():
    return UserFactory(username="org-lineups")


def _member(t, last_name):
    return TeamMember.objects.select_related("entry", "team").get(team__tournament=t, entry__player__last_name=last_name)


# --- a member who withdrew before the schedule is drawn is not seated ----------------------------


def test_a_member_withdrawn_before_the_draw_is_named_and_the_schedule_refused(client, organiser):
    t, _teams = _event(organiser, slug="gone-early", sizes=(2, 2))
    gone = _member(t, "Баку2").entry
    entry_status.withdraw(gone, organiser, reason="заболел")
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    (problem,) = refused.value.problems
    assert problem.code == "pairing.scheveningen.withdrawn_member"
    assert "Команда «Баку»" in problem.message("ru") and "доска 2" in problem.message("ru")
    assert "Team «Баку»" in problem.message("en") and "board 2" in problem.message("en")
    assert not t.rounds.exists()
    # said while the teams are made: the teams page, the API, and the open draw refuses it too
    client.force_login(organiser)
    page = _text(client.get(f"/t/{t.slug}/manage/teams/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "снялся с соревнований" in page and "(выбыл(а))" in page  # neutral: the record has no gender (issue 49)
    codes = [p["code"] for p in APIClient().get(f"/api/tournaments/{t.slug}/team-match/").json()["problems"]]
    assert codes == ["pairing.scheveningen.withdrawn_member"]


def test_the_open_draw_refuses_a_line_up_with_a_withdrawn_member(organiser):
    t, _teams = _event(organiser, slug="gone-draw", sizes=(2, 2), seeding=Seeding.DRAW)
    entry_status.withdraw(_member(t, "Москва1").entry, organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.post(f"/api/tournaments/{t.slug}/draw/commit/")
    assert answer.status_code == 409 and answer.json()["code"] == "pairing.scheveningen.withdrawn_member"
    assert not t.entries.exclude(draw_number=None).exists()


def test_filling_the_board_of_a_withdrawn_member_lets_the_schedule_be_drawn(organiser):
    t, teams = _event(organiser, slug="gone-filled", sizes=(2, 2))
    gone = _member(t, "Баку2")
    entry_status.withdraw(gone.entry, organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.delete(f"/api/tournaments/{t.slug}/teams/{teams[1].pk}/members/{gone.entry_id}/").status_code == 204
    stand_in = EntryFactory(tournament=t, draw_number=30)
    put = api.post(f"/api/tournaments/{t.slug}/teams/{teams[1].pk}/members/", {"entry": stand_in.pk, "board": 2}, format="json")
    assert put.status_code == 200 and put.json()["lineup_problems"] == [], put.content
    rounds = pm.generate_next(t, user=organiser)
    seated = {e for r in rounds for pair in r.matches.values_list("entry_a", "entry_b") for e in pair}
    assert gone.entry_id not in seated and stand_in.pk in seated


@pytest.mark.parametrize(("settle", "kind"), [("forfeit", ResultKind.FORFEIT), ("void", ResultKind.VOID)])
def test_a_withdrawal_after_the_draw_settles_every_remaining_match_as_chosen(organiser, settle, kind):
    t, _teams = _event(organiser, slug=f"gone-late-{settle}", sizes=(3, 3))
    rounds = pm.generate_next(t, user=organiser)
    pm.publish_round(rounds[0], user=organiser)
    gone = _member(t, "Баку1").entry
    entry_status.withdraw(gone, organiser, reason="уехал", settle=settle)
    mine = [m for r in rounds for m in r.matches.all() if gone.pk in (m.entry_a_id, m.entry_b_id)]
    assert len(mine) == 3 and {(m.result_status, m.result_kind) for m in mine} == {(ResultStatus.CONFIRMED, kind)}
    if settle == "forfeit":  # the present player's team gets the board
        assert all(m.winner == ("b" if m.entry_a_id == gone.pk else "a") for m in mine)
    pm.publish_round(rounds[1], user=organiser)  # publishable: nobody waits for him
    team = APIClient().get(f"/api/tournaments/{t.slug}/team-match/").json()["matches"][0]["total"]
    assert team["forfeits"] == (2 if settle == "forfeit" else 0)


# --- line-ups are fixed once the schedule is drawn -----------------------------------------------


def test_the_api_refuses_to_change_a_line_up_once_round_one_is_paired(organiser):
    t, teams = _event(organiser, slug="fixed-api", sizes=(2, 2))
    pm.generate_next(t, user=organiser)  # drafts only: the schedule is drawn all the same
    api = APIClient()
    api.force_authenticate(organiser)
    spare = EntryFactory(tournament=t, draw_number=40)
    url = f"/api/tournaments/{t.slug}/teams/{teams[0].pk}/members/"
    put = api.post(url, {"entry": spare.pk, "board": 3}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert put.status_code == 409 and put.json()["code"] == "entry.lineup_fixed"
    assert "состав команды «Москва» больше менять нельзя" in put.json()["detail"]
    board = _member(t, "Москва1")
    moved = api.post(url, {"entry": board.entry_id, "board": 3}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert moved.status_code == 409 and "line-up of team “Москва” can no longer change" in moved.json()["detail"]
    off = api.delete(f"{url}{board.entry_id}/")
    assert off.status_code == 409 and off.json()["code"] == "entry.lineup_fixed"
    assert TeamMember.objects.filter(team__tournament=t).count() == 4 and _member(t, "Москва1").board == 1


def test_the_teams_page_refuses_to_change_a_line_up_once_round_one_is_paired(client, organiser):
    t, teams = _event(organiser, slug="fixed-page", sizes=(2, 2))
    client.force_login(organiser)
    before = _text(client.get(f"/t/{t.slug}/manage/teams/", HTTP_ACCEPT_LANGUAGE="en"))
    assert 'name="what" value="unassign"' in before and 'id="lineups-fixed"' not in before
    pm.generate_next(t, user=organiser)
    page = _text(client.get(f"/t/{t.slug}/manage/teams/", HTTP_ACCEPT_LANGUAGE="en"))
    assert 'id="lineups-fixed"' in page and 'name="what" value="unassign"' not in page
    member = _member(t, "Баку1")
    answer = client.post(f"/t/{t.slug}/manage/teams/", {"what": "unassign", "member": member.pk},
                         follow=True, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert "Расписание составлено по доскам" in _text(answer)
    spare = EntryFactory(tournament=t, draw_number=40)
    answer = client.post(f"/t/{t.slug}/manage/teams/", {"what": "member", "team": teams[1].pk, "entry": spare.pk,
                                                          "board": 3}, follow=True, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert "The schedule is drawn from the boards" in _text(answer)
    assert not TeamMember.objects.filter(entry=spare).exists() and TeamMember.objects.filter(pk=member.pk).exists()


# --- the pairings say each player's team; the crosstable lists team by team ------------------------


@pytest.fixture
def paired(organiser):
    """Москва (draw numbers 3, 1) against Баку (4, 2): the draw numbers mix the teams."""
    t, _teams = _event(organiser, slug="teams-shown", sizes=(2, 2))
    for last_name, number in (("Москва1", 3), ("Москва2", 1), ("Баку1", 4), ("Баку2", 2)):
        entry = _member(t, last_name).entry
        entry.draw_number = number
        entry.save(update_fields=["draw_number"])
    for rnd in pm.generate_next(t, user=organiser):
        pm.publish_round(rnd, user=organiser)
    match = t.rounds.get(number=1).matches.order_by("table").first()
    match.score_a, match.score_b, match.winner = 5, 2, "a"
    match.result_status, match.result_kind = ResultStatus.CONFIRMED, ResultKind.PLAYED
    match.save()
    return t


def test_the_pairings_page_names_each_players_team(client, paired):
    html = _text(client.get(f"/t/{paired.slug}/pairings/?round=1", HTTP_ACCEPT_LANGUAGE="ru"))
    rows = html[html.index("<tbody>"):html.index("</tbody>")].split("<tr")[1:]
    assert len(rows) == 2
    for row in rows:
        assert '<small class="team">(Москва)</small>' in row and '<small class="team">(Баку)</small>' in row


def test_the_hall_display_names_each_players_team(client, paired):
    paired.refresh_from_db()
    html = _text(client.get(reverse("hall-frame", kwargs={"slug": paired.slug}), HTTP_ACCEPT_LANGUAGE="ru"))
    assert html.count('<small class="team">Москва</small>') == 2 and html.count('<small class="team">Баку</small>') == 2


def _order(names, text):
    return sorted(names, key=text.index)


def test_the_crosstable_lists_team_a_by_board_then_team_b(client, paired):
    names = ["Москва1", "Москва2", "Баку1", "Баку2"]
    html = _text(client.get(f"/t/{paired.slug}/crosstable/", HTTP_ACCEPT_LANGUAGE="ru"))
    individual = html[html.index("Личное первенство"):]
    assert _order(names, individual) == names
    rows = APIClient().get(f"/api/tournaments/{paired.slug}/crosstable/").json()["sections"][0]["rows"]
    assert [r["name"] for r in rows] == [_member(paired, n).entry.player.full_name for n in names]
    out = io.BytesIO()
    build_workbook(paired, out, "ru")
    sheet = load_workbook(io.BytesIO(out.getvalue()))["Турнирная таблица"]
    listed = [str(row[1]) for row in sheet.iter_rows(values_only=True) if row[1] and str(row[1]).startswith(("Москва", "Баку"))]
    assert [n for n in listed if n.split()[0] in names][:4] == [_member(paired, n).entry.player.full_name for n in names]


def test_other_systems_keep_the_draw_order_and_name_no_team(client):
    t = TournamentFactory(slug="rr-order", system="round_robin", rounds_planned=None)
    for number, name in ((2, "Второй"), (1, "Первый")):
        EntryFactory(tournament=t, draw_number=number, player__last_name=name)
    for rnd in pm.generate_next(t, user=UserFactory(username="rr-order-dir", is_superuser=True)):
        rnd.status = RoundStatus.PUBLISHED
        rnd.save(update_fields=["status"])
    html = _text(client.get(f"/t/{t.slug}/crosstable/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert html.index("Первый") < html.index("Второй")
    assert 'class="team"' not in _text(client.get(f"/t/{t.slug}/pairings/", HTTP_ACCEPT_LANGUAGE="ru"))


def test_a_knockout_of_teams_settles_a_withdrawn_member_seated_in_the_next_stage(organiser):
    """More than two teams: the line-ups are fixed, so a member withdrawn during a stage is in
    the next stage's draft — with his match already settled, a forfeit to his opponent, as a
    two-team event's withdrawal settles its drafts. It publishes as it is (it was refused,
    naming him, until he was withdrawn again by hand) and, nothing left to play, closes."""
    t = TournamentFactory(slug="teams-ko-gone", system="scheveningen", rounds_planned=None)
    Official.objects.create(tournament=t, user=organiser, role=OfficialRole.ORGANISER)
    for i, name in enumerate(("Москва", "Баку", "Ереван", "Тбилиси")):
        TeamMemberFactory(team=TeamFactory(tournament=t, name=name), board=1,
                          entry=EntryFactory(tournament=t, draw_number=i + 1, player__last_name=name))  # fmt: skip
    (stage,) = pm.generate_next(t, user=organiser)
    pm.publish_round(stage, user=organiser)
    for match in stage.matches.all():
        match.score_a, match.score_b, match.winner = 5, 0, "a"
        match.result_status, match.result_kind = ResultStatus.CONFIRMED, ResultKind.PLAYED
        match.save()
    finalist = stage.matches.order_by("table").first().entry_a
    entry_status.withdraw(finalist, organiser, settle="forfeit")
    (final,) = pm.generate_next(t, user=organiser)
    match = final.matches.get()
    assert match.result_kind == ResultKind.FORFEIT and match.result_status == ResultStatus.CONFIRMED
    assert match.winner == ("b" if match.entry_a_id == finalist.pk else "a")
    pm.publish_round(final, user=organiser)
    final.refresh_from_db()
    assert final.status == RoundStatus.FINISHED
