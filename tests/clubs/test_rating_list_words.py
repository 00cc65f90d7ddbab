"""Words and numbers of the rating list and the season (issue 37), in Russian and English.

Shared ranks (equal ratings share a place), experience and the provisional mark on the
page, the Excel file and the API; Russian plural forms; dates in Excel as dates.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import PlayerRating, Season
from tests.factories import ClubFactory, PlayerFactory, rated_on

pytestmark = pytest.mark.django_db


def _rated(name: str, rating: float, experience: int, played=None):
    player = PlayerFactory(last_name=name, first_name="", last_name_latin=name, first_name_latin="")
    if played is not None:
        rated_on(player, played)
    return PlayerRating.objects.create(player=player, pool="backgammon", rating=rating, experience=experience,
                                       matches=experience // 10, last_played=played)  # fmt: skip


@pytest.fixture
def ratings():
    day = dt.date(2026, 3, 1)
    return [_rated("Top", 1700, 900, day), _rated("Tied1", 1600, 500, day), _rated("Tied2", 1600.001, 450, day),
            _rated("Tied3", 1599.999, 420, day), _rated("Newcomer", 1550, 35, day)]  # fmt: skip


def test_equal_ratings_share_a_place_on_the_page_the_excel_file_and_the_api(client, ratings):
    page = client.get(reverse("rating-list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('<td class="num">2–4</td>') == 3 and '<td class="num">5</td>' in page
    sheet = load_workbook(io.BytesIO(client.get(reverse("rating-export")).content)).active
    rows = list(sheet.iter_rows(min_row=4, values_only=True))
    assert [r[0] for r in rows] == [1, "2–4", "2–4", "2–4", 5]  # a place is a number unless shared
    assert isinstance(rows[0][9], dt.datetime) and rows[0][9].date() == dt.date(2026, 3, 1)  # a date cell
    data = client.get("/api/ratings/?pool=backgammon").json()
    assert [r["rank"] for r in data["results"]] == ["1", "2–4", "2–4", "2–4", "5"]


def test_experience_and_the_provisional_mark_are_shown(client, ratings):
    page = client.get(reverse("rating-list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    newcomer = page[page.index("Newcomer"):page.index("</tr>", page.index("Newcomer"))]
    assert "prov." in newcomer and '<td class="num">35</td>' in newcomer  # 3 rated matches
    top = page[page.index("Top"):page.index("</tr>", page.index("Top"))]
    assert "prov." not in top and '<td class="num">900</td>' in top  # 90 rated matches
    russian = client.get(reverse("rating-list"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "предв." in russian and "Равные рейтинги делят место" in russian and "меньше 30 рейтинговых матчей" in russian
    api = {r["name"]: r["provisional"] for r in client.get("/api/ratings/?pool=backgammon").json()["results"]}
    assert api["Newcomer"] is True and api["Top"] is False


@pytest.mark.parametrize(
    ("months", "lang", "words"),
    [(1, "en", "active in the last 1 month"), (3, "en", "active in the last 3 months"),
     (1, "ru", "играли за последний 1 месяц"), (2, "ru", "играли за последние 2 месяца"),
     (5, "ru", "играли за последние 5 месяцев")],
)  # fmt: skip
def test_the_excel_subtitle_says_the_months_in_the_right_plural(client, ratings, months, lang, words):
    data = client.get(reverse("rating-export"), {"months": months}, HTTP_ACCEPT_LANGUAGE=lang).content
    subtitle = load_workbook(io.BytesIO(data)).active["A2"].value
    assert words in subtitle


@pytest.mark.parametrize(
    ("best", "lang", "words"),
    [(1, "en", "best 1 event counts"), (2, "en", "best 2 events count"), (1, "ru", "в зачёт идёт 1 лучший турнир"),
     (2, "ru", "в зачёт идут 2 лучших турнира"), (5, "ru", "в зачёт идут 5 лучших турниров")],
)  # fmt: skip
def test_the_season_says_how_many_best_events_count_in_the_right_plural(client, best, lang, words):
    season = Season.objects.create(club=ClubFactory(), name="Весна", slug="spring", points_by_place=[10], best_of=best)
    page = client.get(reverse("season-detail", kwargs={"slug": season.slug}), HTTP_ACCEPT_LANGUAGE=lang)
    assert words in page.content.decode()


def test_the_rating_history_writes_numbers_the_readers_way(client):
    from tests.factories import MatchFactory, RoundFactory, TournamentFactory, enter
    from tournaments.ratings import service as ratings_service

    anna, boris = (PlayerFactory(last_name=n, first_name="", last_name_latin=n, first_name_latin="") for n in ("Anna", "Boris"))
    event = TournamentFactory(rated=True, variant="backgammon")
    a, b = enter(event, [anna, boris])
    MatchFactory(round=RoundFactory(tournament=event, number=1), table=1, entry_a=a, entry_b=b, confirmed=True,
                 score_a=1, score_b=5, winner="b")  # fmt: skip
    ratings_service.recompute("backgammon", 1)
    url = reverse("player-rating-history", kwargs={"player_id": anna.pk, "pool": "backgammon"})
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    after = PlayerRating.objects.get(player=anna).rating
    delta = f"{1500 - after:.2f}"
    assert f"\u2212{delta.replace('.', ',')}" in russian and f"\u2212{delta}" in english  # a minus, local decimals
    assert f"{after:.2f}".replace(".", ",") in russian.split("<title", 2)[-1]  # the graph's points too
    assert "1 рейтинговый матч" in russian and "1 rated match:" in english


def test_a_fixed_games_length_reads_as_games_not_points(client):
    from tests.factories import MatchFactory, RoundFactory, TournamentFactory, enter
    from tournaments.ratings import service as ratings_service

    anna, boris = (PlayerFactory(last_name=n, first_name="", last_name_latin=n, first_name_latin="") for n in ("Anna", "Boris"))
    event = TournamentFactory(rated=True, variant="backgammon", match_format="games", fixed_games=4)
    a, b = enter(event, [anna, boris])
    MatchFactory(round=RoundFactory(tournament=event, number=1), table=1, entry_a=a, entry_b=b, confirmed=True,
                 score_a=3, score_b=1, winner="a")  # fmt: skip
    ratings_service.recompute("backgammon", 1)
    url = reverse("player-rating-history", kwargs={"player_id": anna.pk, "pool": "backgammon"})
    assert "4 games" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4 партии" in client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    change = client.get(f"/api/players/{anna.pk}/rating-history/?pool=backgammon").json()["changes"][0]
    assert (change["length"], change["length_unit"]) == (4, "games")
