"""Issue 35, Scheveningen: the team match is the main result — on the pages, in the workbook
and in the API — and uneven teams are refused while the teams are made, before any number
is drawn. The book (Part 9): «наряду с основным командным матчем удаётся провести и личное
первенство»."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import Official, OfficialRole, ResultKind, ResultStatus, Seeding
from tournaments.rounds import pairing_manager as pm

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def organiser():
    return UserFactory(username="org-team")


def _event(organiser, slug="sch-team", sizes=(2, 2), **extra):
    t = TournamentFactory(slug=slug, system="scheveningen", rounds_planned=None, **extra)
    Official.objects.create(tournament=t, user=organiser, role=OfficialRole.ORGANISER)
    teams = [TeamFactory(tournament=t, name=name) for name in ("Москва", "Баку")]
    for team, size in zip(teams, sizes, strict=True):
        for board in range(1, size + 1):
            TeamMemberFactory(
                team=team, board=board,
                entry=EntryFactory(tournament=t, player__last_name=f"{team.name}{board}", player__first_name="И",
                                   draw_number=None if extra.get("seeding") else board + (10 if team.name == "Баку" else 0)),
            )  # fmt: skip
    return t, teams


def _result(match, a, b, winner, kind=ResultKind.PLAYED):
    match.score_a, match.score_b, match.winner, match.result_kind = a, b, winner, kind
    match.result_status = ResultStatus.CONFIRMED
    match.save()


@pytest.fixture
def played(organiser):
    """Москва 3 : 1 Баку in match wins, 16 : 12 in points; Баку's board 2 did not come in round 2."""
    t, teams = _event(organiser)
    rounds = pm.generate_next(t, user=organiser)
    for rnd in rounds:
        pm.publish_round(rnd, user=organiser)
    moscow = {m.entry_id for m in teams[0].members.all()}
    for rnd in rounds:
        for match in rnd.matches.select_related("entry_a__player", "entry_b__player"):
            a_is_moscow = match.entry_a_id in moscow
            m_name = (match.entry_a if a_is_moscow else match.entry_b).player.last_name
            b_name = (match.entry_b if a_is_moscow else match.entry_a).player.last_name
            # (Москва's score, Баку's score, who won, how)
            outcome = {
                ("Москва1", "Баку1"): (5, 3, "m", ResultKind.PLAYED),
                ("Москва2", "Баку2"): (1, 5, "b", ResultKind.PLAYED),
                ("Москва1", "Баку2"): (5, 0, "m", ResultKind.FORFEIT),
                ("Москва2", "Баку1"): (5, 4, "m", ResultKind.PLAYED),
            }[m_name, b_name]
            mine, theirs, who, kind = outcome
            side = ("a" if a_is_moscow else "b") if who == "m" else ("b" if a_is_moscow else "a")
            score = (mine, theirs) if a_is_moscow else (theirs, mine)
            _result(match, *score, side, kind)
    return t


def _text(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("page", ["", "standings/", "crosstable/"])
def test_the_pages_open_with_the_team_match_then_the_individual_championship(client, played, page):
    ru = _text(client.get(f"/t/{played.slug}/{page}", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Командный матч" in ru and "Москва</span> 3 : 1 <span class=\"team\">Баку" in ru
    assert "очки 16 : 12" in ru and "Командный матч выиграла команда «Москва»" in ru
    assert ru.index("Командный матч") < ru.index("Личное первенство")
    assert "+5:0" in ru  # the absence, counted as the forfeit it is
    assert "Засчитано результатов по неявке: 1" in ru
    en = _text(client.get(f"/t/{played.slug}/{page}", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Team match" in en and "Москва won the team match." in en and "Individual championship" in en


def test_the_board_grid_has_team_a_down_and_team_b_across(client, played):
    html = _text(client.get(f"/t/{played.slug}/crosstable/", HTTP_ACCEPT_LANGUAGE="ru"))
    grid = html[html.index("team-boards"):html.index("</table>", html.index("team-boards"))]
    header, first_row, second_row = grid.split("<tr>")[1:4]
    assert header.index("Баку1") < header.index("Баку2") and "Москва1" not in header
    assert "Москва1" in first_row and "5:3" in first_row and "+5:0" in first_row
    assert "Москва2" in second_row and "1:5" in second_row and "5:4" in second_row


def test_the_api_gives_the_team_match_and_declares_it(played):
    data = APIClient().get(f"/api/tournaments/{played.slug}/team-match/").json()
    (match,) = data["matches"]
    assert (match["team_a"]["name"], match["team_b"]["name"]) == ("Москва", "Баку")
    assert match["total"]["match_points"] == [3, 1] and match["total"]["points"] == [16, 12]
    assert match["final"] and match["winner"] == "a" and match["total"]["forfeits"] == 1
    assert [(r["round"], r["match_points"]) for r in match["rounds"]] == [(1, [1, 1]), (2, [2, 0])]
    forfeit = [b for b in match["boards"] if b["kind"] == "forfeit"]
    assert [(f["board_a"], f["board_b"], f["score"], f["outcome"]) for f in forfeit] == [(1, 2, [5, 0], "win")]
    assert [p["board"] for p in match["team_a"]["players"]] == [1, 2] and data["problems"] == []
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/tournaments/{slug}/team-match/" in schema["paths"]
    assert "TeamMatches" in schema["components"]["schemas"]


def test_a_result_changes_the_team_match_at_once(played):
    api = APIClient()
    assert api.get(f"/api/tournaments/{played.slug}/team-match/").json()["matches"][0]["winner"] == "a"
    match = played.rounds.get(number=2).matches.filter(result_kind=ResultKind.FORFEIT).get()
    moscow_side = "a" if match.entry_a.player.last_name == "Москва1" else "b"
    _result(match, 0, 0, "", ResultKind.DOUBLE_FORFEIT)
    data = api.get(f"/api/tournaments/{played.slug}/team-match/").json()["matches"][0]
    assert data["total"]["match_points"] == [2, 1] and data["total"]["points"] == [11, 12]
    assert moscow_side in "ab"


@pytest.mark.parametrize(("lang", "sheet", "won"), [("ru", "Командный матч", "выиграла"), ("en", "Team match", "won by")])
def test_the_workbook_has_a_team_match_sheet_and_opens_on_it(played, lang, sheet, won):
    out = io.BytesIO()
    build_workbook(played, out, lang)
    wb = load_workbook(io.BytesIO(out.getvalue()))
    assert wb.sheetnames[-1] == sheet and wb.active.title == sheet
    assert wb.sheetnames[0] in ("Турнирное положение", "Standings")  # the others keep their places
    rows = [tuple(c for c in row if c not in (None, "")) for row in wb[sheet].iter_rows(values_only=True)]
    assert ("Москва", 3, 16) in rows and ("Баку", 1, 12) in rows
    assert any(won in str(cell) for row in rows for cell in row)
    grid = [r for r in rows if len(r) > 1 and r[0] == 1 and str(r[1]).startswith(("Москва1", "Petr"))]
    assert grid and grid[0][2:5] == ("5:3 (1)", "+5:0 (2)", 2)


def test_other_systems_have_no_team_match(client):
    t = TournamentFactory(slug="plain-swiss")
    assert "Командный матч" not in _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert APIClient().get(f"/api/tournaments/{t.slug}/team-match/").json() == {
        "tournament": "plain-swiss", "matches": [], "problems": []
    }
    out = io.BytesIO()
    build_workbook(t, out, "ru")
    assert "Командный матч" not in load_workbook(io.BytesIO(out.getvalue())).sheetnames


# --- uneven teams: refused while the teams are made, before any number is drawn -------------


def test_uneven_teams_are_named_on_the_teams_page_and_in_the_api(client, organiser):
    t, _teams = _event(organiser, slug="uneven", sizes=(4, 3), seeding=Seeding.DRAW)
    client.force_login(organiser)
    ru = _text(client.get(f"/t/{t.slug}/manage/teams/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "В командах должно быть одинаковое число игроков: «Москва» — 4, «Баку» — 3" in ru
    assert 'role="alert"' in ru
    en = _text(client.get(f"/t/{t.slug}/manage/teams/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "The teams must have the same number of players" in en
    data = APIClient().get(f"/api/tournaments/{t.slug}/team-match/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [p["code"] for p in data["problems"]] == ["pairing.scheveningen.uneven_teams"]


def test_the_open_draw_refuses_uneven_teams_before_any_number(client, organiser):
    t, _teams = _event(organiser, slug="uneven-draw", sizes=(4, 3), seeding=Seeding.DRAW)
    api = APIClient()
    api.force_authenticate(organiser)
    commit = api.post(f"/api/tournaments/{t.slug}/draw/commit/", HTTP_ACCEPT_LANGUAGE="ru")
    assert commit.status_code == 409 and commit.json()["code"] == "pairing.scheveningen.uneven_teams"
    assert "«Баку» — 3" in commit.json()["detail"] or "«Баку» — 3" in str(commit.json())
    t.refresh_from_db()
    assert not t.draw_commitment
    t.draw_secret = "x" * 64  # a commitment made before the teams went uneven
    t.save(update_fields=["draw_secret"])
    perform = api.post(f"/api/tournaments/{t.slug}/draw/perform/")
    assert perform.status_code == 409 and perform.json()["code"] == "pairing.scheveningen.uneven_teams"
    client.force_login(organiser)
    page = client.post(f"/t/{t.slug}/manage/draw/perform/", follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "The teams must have the same number of players" in page.content.decode()
    assert not t.entries.exclude(draw_number=None).exists()


def test_pairing_refuses_uneven_teams_before_seeding_numbers(organiser):
    t, _teams = _event(organiser, slug="uneven-seed", sizes=(4, 3), seeding=Seeding.REGISTRATION)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.scheveningen.uneven_teams"
    assert not t.entries.exclude(draw_number=None).exists() and not t.rounds.exists()


def test_even_teams_draw_and_pair(organiser):
    t, teams = _event(organiser, slug="even-again", sizes=(4, 3), seeding=Seeding.REGISTRATION)
    TeamMemberFactory(team=teams[1], board=4, entry=EntryFactory(tournament=t, draw_number=None))
    assert len(pm.generate_next(t, user=organiser)) == 4


def test_the_api_teams_endpoint_says_at_once_when_the_teams_are_uneven(organiser):
    t, teams = _event(organiser, slug="uneven-api", sizes=(3, 3), seeding=Seeding.DRAW)
    api = APIClient()
    api.force_authenticate(organiser)
    extra = EntryFactory(tournament=t, draw_number=None)
    url = f"/api/tournaments/{t.slug}/teams/{teams[0].pk}/members/"
    put = api.post(url, {"entry": extra.pk, "board": 4}, format="json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert [p["code"] for p in put["lineup_problems"]] == ["pairing.scheveningen.uneven_teams"]
    assert "«Москва» — 4, «Баку» — 3" in put["lineup_problems"][0]["message"]
    other = EntryFactory(tournament=t, draw_number=None)
    url = f"/api/tournaments/{t.slug}/teams/{teams[1].pk}/members/"
    assert api.post(url, {"entry": other.pk, "board": 4}, format="json").json()["lineup_problems"] == []
    assert api.post(f"/api/tournaments/{t.slug}/draw/commit/").status_code == 200


def test_an_organiser_sees_the_team_match_before_the_event_is_released(client, organiser, played):
    played.public = False
    played.save(update_fields=["public"])
    client.force_login(organiser)
    html = _text(client.get(f"/t/{played.slug}/standings/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Командный матч" in html and "3 : 1" in html


def test_the_organisers_rounds_page_shows_the_team_score_and_uneven_teams(client, organiser, played):
    client.force_login(organiser)
    html = _text(client.get(f"/t/{played.slug}/manage/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Командный матч: Москва 3 : 1 Баку" in html and "очки 16 : 12" in html
    uneven, _teams = _event(organiser, slug="uneven-rounds", sizes=(2, 1), seeding=Seeding.DRAW)
    html = _text(client.get(f"/t/{uneven.slug}/manage/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "The teams must have the same number of players: «Москва» — 2, «Баку» — 1" in html


def test_a_knockout_of_teams_advances_the_team_that_won_by_forfeits(organiser):
    """The next stage reads the same team score: forfeits scored "as played" (0:0 on the sheet)
    are still wins for the present players' team, not a tie."""
    t = TournamentFactory(slug="teams-ko", system="scheveningen", rounds_planned=None)
    teams = [TeamFactory(tournament=t, name=name) for name in ("Москва", "Баку", "Ереван", "Тбилиси")]
    for i, team in enumerate(teams):
        TeamMemberFactory(team=team, board=1, entry=EntryFactory(tournament=t, draw_number=i + 1))
    (stage,) = pm.generate_next(t, user=organiser)
    pm.publish_round(stage, user=organiser)
    team_of = {m.entry_id: m.team for team in teams for m in team.members.select_related("team")}
    for match in stage.matches.all():
        # the team created later did not come: a forfeit for the other side, nothing on the sheet
        side = "a" if team_of[match.entry_a_id].pk < team_of[match.entry_b_id].pk else "b"
        _result(match, 0, 0, side, ResultKind.FORFEIT)
    (final,) = pm.generate_next(t, user=organiser)
    finalists = {team_of[e].name for e in final.matches.values_list("entry_a_id", "entry_b_id").get()}
    assert finalists == {"Москва", "Баку"}


def test_a_team_event_without_teams_shows_no_empty_team_block(client, organiser):
    t = TournamentFactory(slug="no-teams-yet", system="scheveningen", rounds_planned=None)
    assert "Командный матч" not in _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="ru"))
    problems = APIClient().get(f"/api/tournaments/{t.slug}/team-match/").json()["problems"]
    assert [p["code"] for p in problems] == ["pairing.scheveningen.team_count"]


def test_line_ups_show_on_the_overview_before_the_first_round(client, organiser):
    t, _teams = _event(organiser, slug="line-ups", sizes=(2, 2))
    html = _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Командный матч" in html and html.index("<h3>Москва</h3>") < html.index("<h3>Баку</h3>")
    assert html.index("Москва1") < html.index("Москва2")
