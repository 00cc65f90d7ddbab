"""Seasons: organisers create them, anyone reads the standings and the Excel file."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import ClubRole, Season
from tests.factories import (
    ClubFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.models import AuditEntry, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def club():
    return ClubFactory(name="Зарик", slug="zarik")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    return user


def round_robin(club, players, winners, *, name, starts_on, season=None, finished=True):
    """A one-round event: players[0] v players[1], players[2] v players[3]; ``winners`` per table ('a'/'b')."""
    t = TournamentFactory(club=club, name=name, starts_on=starts_on, season=season,
                          status=TournamentStatus.FINISHED if finished else TournamentStatus.IN_PROGRESS)
    entries = enter(t, players)
    rnd = RoundFactory(tournament=t, number=1, finished=True)
    for table, side in enumerate(winners, start=1):
        a, b = entries[2 * table - 2], entries[2 * table - 1]
        MatchFactory(round=rnd, table=table, entry_a=a, entry_b=b, confirmed=True,
                     score_a=5 if side == "a" else 1, score_b=1 if side == "a" else 5, winner=side)
    return t


@pytest.fixture
def people():
    return [PlayerFactory(last_name=n, last_name_latin=lat, first_name="", first_name_latin="")
            for n, lat in (("Аров", "Arov"), ("Боров", "Borov"), ("Воров", "Vorov"), ("Горов", "Gorov"))]


def season_with_events(club, people, **fields):
    season = Season.objects.create(club=club, name="Весна", slug="spring", points_by_place=[10, 6, 3],
                                   **fields)
    a, b, c, d = people
    # event 1: A beats B, C beats D; event 2: A beats C, B beats D (winners share 1st–2nd)
    round_robin(club, [a, b, c, d], ["a", "a"], name="Этап 1", starts_on="2026-03-01", season=season)
    round_robin(club, [a, c, b, d], ["a", "a"], name="Этап 2", starts_on="2026-04-01", season=season)
    round_robin(club, [a, d, b, c], ["b", "b"], name="Этап 3", starts_on="2026-05-01", season=season,
                finished=False)
    return season


def test_season_page_shows_points_per_event_total_and_places(client, club, people):
    season = season_with_events(club, people)
    page = client.get(reverse("season-detail", kwargs={"slug": season.slug}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Этап 1" in html and "Этап 2" in html
    assert "Events still to come" in html and "Этап 3" in html  # not finished: not scored
    for name in ("Аров", "Боров", "Воров", "Горов"):
        assert name in html


def test_season_standings_values(club, people):
    from clubs.life.seasons.standings import compute

    season = season_with_events(club, people)
    table = compute(season)
    assert [t.name for t in table.events] == ["Этап 1", "Этап 2"]
    totals = {r.player.name_ru: r.total for r in table.rows}
    # each event: two winners share 1st–2nd ((10+6)/2 = 8), two losers share 3rd–4th ((3+0)/2)
    assert totals == {"Аров": 8 + 8, "Боров": 1.5 + 8, "Воров": 8 + 1.5, "Горов": 1.5 + 1.5}
    assert table.rows[0].player.name_ru == "Аров"
    assert [r.place_label for r in table.rows] == ["1", "2–3", "2–3", "4"]


def test_best_of_marks_counted_events_and_tiebreaks_split(club, people):
    from clubs.life.seasons.standings import compute

    season = season_with_events(club, people, best_of=1, tiebreaks=["points"])
    table = compute(season)
    assert table.best_of_applies
    by_name = {r.player.name_ru: r for r in table.rows}
    assert by_name["Аров"].total == 8 and len(by_name["Аров"].counted) == 1
    # Аров, Боров, Воров all have 8 counted; game points split them: Аров 10, Боров 6, Воров 6
    assert table.rows[0].player.name_ru == "Аров" and table.rows[0].place_label == "1"
    assert [r.place_label for r in table.rows[1:3]] == ["2–3", "2–3"]


def test_season_page_queries_do_not_grow_with_players_or_events(client, club, django_assert_num_queries):
    season = Season.objects.create(club=club, name="S", slug="s", points_by_place=[3, 2, 1])
    players = [PlayerFactory() for _ in range(28)]
    url = reverse("season-detail", kwargs={"slug": season.slug})
    round_robin(club, players[:4], ["a", "b"], name="E1", starts_on="2026-03-01", season=season)
    cache.clear()  # both counts from a cold cache
    with CaptureQueriesContext(connection) as one_event:
        client.get(url)
    t = round_robin(club, players[4:8], ["a", "b"], name="E2", starts_on="2026-03-02", season=season)
    rnd = RoundFactory(tournament=t, number=2, finished=True)
    for i in range(8, 20, 2):
        e = enter(t, players[i:i + 2], first_number=i + 1)
        MatchFactory(round=rnd, table=i, entry_a=e[0], entry_b=e[1], confirmed=True)
    for n in range(3, 5):
        round_robin(club, players[20 + 4 * (n - 3):24 + 4 * (n - 3)], ["a", "a"], name=f"E{n}",
                    starts_on=f"2026-03-0{n}", season=season)
    cache.clear()
    with django_assert_num_queries(len(one_event.captured_queries)):
        client.get(url)  # four events and seven times the players: the same number of queries


def test_season_excel_export(client, club, people):
    season = season_with_events(club, people, best_of=1)
    response = client.get(reverse("season-export", kwargs={"slug": season.slug}))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    ws = load_workbook(io.BytesIO(response.content)).active
    values = list(ws.iter_rows(values_only=True))
    assert values[2][:5] == ("Place", "Player", "Этап 1", "Этап 2", "Total")
    assert values[3][1] == "Arov" and values[3][4] == 8
    counted = [ws.cell(row=4, column=c).fill.start_color.rgb for c in (3, 4)]
    assert any("C6EFCE" in str(rgb) for rgb in counted)  # the counted event is shaded


def test_private_season_is_404_to_the_public(client, club, organiser):
    season = Season.objects.create(club=club, name="S", slug="hidden", public=False)
    url = reverse("season-detail", kwargs={"slug": season.slug})
    assert client.get(url).status_code == 404
    assert client.get(reverse("season-export", kwargs={"slug": season.slug})).status_code == 404
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_organiser_creates_a_season_and_assigns_events(client, club, organiser):
    t1 = TournamentFactory(club=club, name="Этап 1")
    t2 = TournamentFactory(club=club, name="Этап 2")
    other = TournamentFactory(club=ClubFactory(), name="Чужой")
    client.force_login(organiser)
    url = reverse("season-new", kwargs={"club_slug": club.slug})
    assert client.get(url).status_code == 200
    data = {"name": "Сезон 2026", "slug": "", "points": "25, 18, 15, 12", "best_of": "2", "public": "on",
            "tournaments": [t1.pk, t2.pk], "tb__wins": "on", "tb__wins__order": "1",
            "tb__buchholz": "on", "tb__buchholz__order": "2"}
    response = client.post(url, data)
    assert response.status_code == 302
    season = Season.objects.get(club=club)
    assert season.points_by_place == [25, 18, 15, 12]
    assert season.best_of == 2 and season.tiebreaks == ["wins", "buchholz"]
    assert season.slug.startswith("zarik")
    assert set(season.tournaments.values_list("pk", flat=True)) == {t1.pk, t2.pk}
    assert AuditEntry.objects.filter(action="season.create").exists()
    # edit: drop an event
    edit = reverse("season-edit", kwargs={"club_slug": club.slug, "season_slug": season.slug})
    assert client.post(edit, {**data, "slug": season.slug, "tournaments": [t1.pk]}).status_code == 302
    assert list(season.tournaments.values_list("pk", flat=True)) == [t1.pk]
    # another club's tournament cannot be assigned
    bad = client.post(edit, {**data, "slug": season.slug, "tournaments": [other.pk]})
    assert bad.status_code == 400
    other.refresh_from_db()
    assert other.season is None


@pytest.mark.parametrize(("points", "message"), [
    ("25, 18, abc", "is not a list of points"),
    ("25, -3", "cannot be negative"),
    ("", "required"),
])
def test_bad_points_table_is_a_field_error_keeping_input(client, club, organiser, points, message):
    _refused(client, club, organiser, {"name": "Сезон", "points": points, "public": "on"}, message)


def test_best_of_zero_is_refused(client, club, organiser):
    _refused(client, club, organiser, {"name": "Сезон", "points": "3, 2, 1", "best_of": "0"},
             "greater than or equal to 1")


def _refused(client, club, organiser, data, message):
    client.force_login(organiser)
    url = reverse("season-new", kwargs={"club_slug": club.slug})
    response = client.post(url, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'value="Сезон"' in html
    assert not Season.objects.exists()


def test_dates_and_slug_errors(client, club, organiser):
    Season.objects.create(club=club, name="Old", slug="taken")
    client.force_login(organiser)
    url = reverse("season-new", kwargs={"club_slug": club.slug})
    response = client.post(url, {"name": "S", "slug": "taken", "points": "3,2,1",
                                 "starts_on": "2026-05-01", "ends_on": "2026-01-01"})
    html = response.content.decode()
    assert response.status_code == 400 and "is taken" in html and "cannot end before" in html


def test_only_club_organisers_create_seasons(client, club):
    url = reverse("season-new", kwargs={"club_slug": club.slug})
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(username="stranger"))
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "S", "points": "1"}).status_code == 403
    assert not Season.objects.exists()


def test_season_pages_in_russian(client, club, organiser, people):
    season = season_with_events(club, people, best_of=1)
    page = client.get(reverse("season-detail", kwargs={"slug": season.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Итого" in page.content.decode() and "в зачёт идёт 1 лучший турнир" in page.content.decode()
    client.force_login(organiser)
    bad = client.post(reverse("season-new", kwargs={"club_slug": club.slug}),
                      {"name": "Сезон", "points": "25, много"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert bad.status_code == 400 and "не список очков" in bad.content.decode()
