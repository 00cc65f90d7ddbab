"""A non-public event's ratings and season points (issue 37): the numbers are public, the event is not.

The rule (``tournaments.player_history.PRIVACY_RULE``): a private event's rated matches count in the
ratings and season points everyone sees; to a reader who may not view the event, nothing names it —
no event, date, opponent or score — on the pages, the Excel file or the API, and the season says
that an event is not shown.
"""

from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import ClubRole, PlayerRating, Season
from tests.factories import (
    ClubFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.models import TournamentStatus
from tournaments.ratings import service as ratings_service

pytestmark = pytest.mark.django_db

PRIVATE = "Private club night"


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


@pytest.fixture
def world(club):
    """Anna beats Boris in a public event, then Vera 5:2 at a private club night; both in a season."""
    anna, boris, vera = (PlayerFactory(last_name=n, first_name="", last_name_latin=lat, first_name_latin="")
                         for n, lat in (("Аннина", "Annina"), ("Борисов", "Borisov"), ("Верина", "Verina")))  # fmt: skip
    season = Season.objects.create(club=club, name="Весна", slug="spring", points_by_place=[10, 6])
    events = {}
    for name, public, day, (a, b), score in (
        ("Open day", True, "2026-03-01", (anna, boris), (5, 3)),
        (PRIVATE, False, "2026-03-08", (vera, anna), (5, 2)),
    ):
        event = TournamentFactory(club=club, name=name, slug=name.lower().replace(" ", "-"), public=public,
                                  starts_on=day, rated=True, season=season, status=TournamentStatus.FINISHED)  # fmt: skip
        ea, eb = enter(event, [a, b])
        rnd = RoundFactory(tournament=event, number=1, finished=True)
        MatchFactory(round=rnd, table=1, entry_a=ea, entry_b=eb, confirmed=True,
                     score_a=score[0], score_b=score[1], winner="a")  # fmt: skip
        events[name] = event
    ratings_service.recompute("backgammon", 1)
    return {"anna": anna, "boris": boris, "vera": vera, "season": season, **events}


def _history_page(client, player) -> str:
    return client.get(reverse("player-rating-history", kwargs={"player_id": player.pk, "pool": "backgammon"})).content.decode()


def _history_api(client, player) -> dict:
    response = client.get(f"/api/players/{player.pk}/rating-history/?pool=backgammon")
    assert response.status_code == 200
    return response.json()


def test_an_anonymous_rating_history_shows_the_number_but_not_the_private_event(client, world):
    anna, vera = world["anna"], world["vera"]
    page = _history_page(client, anna)
    assert "Open day" in page and "Borisov" in page  # the public event is shown whole
    assert PRIVATE not in page and "Verina" not in page and "Верина" not in page
    assert "5:2" not in page and "2:5" not in page
    assert world[PRIVATE].slug not in page
    assert "A rated match in an event that is not public" in page
    rating = PlayerRating.objects.get(player=anna, pool="backgammon")
    assert f"{rating.rating:.2f}" in page and rating.matches == 2  # the number counts both matches
    data = _history_api(client, anna)
    assert data["rating"] == pytest.approx(rating.rating)
    hidden = [c for c in data["changes"] if c["hidden"]]
    assert len(hidden) == 1 and set(k for k, v in hidden[0].items() if v is not None) == {
        "hidden", "rating_before", "rating_after"}  # fmt: skip
    text = json.dumps(data, ensure_ascii=False)
    assert world[PRIVATE].slug not in text and str(vera.pk) not in [str(c["opponent"]) for c in data["changes"]]
    # Vera played only privately: her history names nothing either.
    vera_page = _history_page(client, vera)
    assert PRIVATE not in vera_page and "Annina" not in vera_page and "Аннина" not in vera_page


def test_the_organiser_sees_the_private_event_in_the_history(client, world, organiser):
    client.force_login(organiser)
    assert PRIVATE in _history_page(client, world["anna"])
    assert not any(c["hidden"] for c in _history_api(client, world["anna"])["changes"])


def _season_sheet(client, season) -> list[list]:
    data = client.get(reverse("season-export", kwargs={"slug": season.slug})).content
    sheet = load_workbook(io.BytesIO(data)).active
    return [[cell for cell in row] for row in sheet.iter_rows(values_only=True)]


def test_season_standings_are_the_same_for_everyone_and_say_an_event_is_hidden(client, world, organiser):
    season = world["season"]
    url = reverse("season-detail", kwargs={"slug": season.slug})
    anonymous_page = client.get(url).content.decode()
    anonymous_sheet = _season_sheet(client, season)
    client.force_login(organiser)
    organiser_page = client.get(url).content.decode()
    organiser_sheet = _season_sheet(client, season)

    assert PRIVATE in organiser_page and "An event not shown" not in organiser_page
    assert PRIVATE not in anonymous_page and world[PRIVATE].slug not in anonymous_page
    assert "1 event is not public: its points count, its name is not shown" in anonymous_page
    # The same people with the same points in the same order: only the private event's name differs.
    def body(sheet):
        return [row for row in sheet if row and row[0] not in (None,) and str(row[0])[:1].isdigit()]

    assert body(anonymous_sheet) == body(organiser_sheet) and len(body(organiser_sheet)) == 3
    flat = [str(cell) for row in anonymous_sheet for cell in row if cell is not None]
    assert PRIVATE not in " ".join(flat) and "An event not shown" in flat


def test_the_rating_list_counts_a_private_events_players_by_the_rule(client, world):
    """The number is public (PRIVACY_RULE): Vera's rating, earned only privately, is on the list."""
    page = client.get(reverse("rating-list"), {"pool": "backgammon"}).content.decode()
    vera = PlayerRating.objects.get(player=world["vera"], pool="backgammon")
    assert "Verina" in page or "Верина" in page
    assert f"{vera.rating:.2f}".replace(".", ",") in page or f"{vera.rating:.2f}" in page
    assert PRIVATE not in page


def test_a_season_cell_shows_the_place_beside_the_points(client, world):
    page = client.get(reverse("season-detail", kwargs={"slug": world["season"].slug})).content.decode()
    assert "10 <span class=\"meta\">(place 1)</span>" in page and "6 <span class=\"meta\">(place 2)</span>" in page
    russian = client.get(reverse("season-detail", kwargs={"slug": world["season"].slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "(1 место)" in russian.content.decode()


def test_the_profile_says_that_a_rating_counts_matches_of_events_not_shown(client, world, organiser):
    url = reverse("player-profile", kwargs={"player_id": world["vera"].pk})
    page = client.get(url).content.decode()
    assert "1 rated match comes from an event that is not public" in page and PRIVATE not in page
    client.force_login(organiser)
    assert 'id="hidden-rated"' not in client.get(url).content.decode()  # the organiser sees the event itself


def _row(page: str, name: str) -> str:
    start = page.index(name)
    return page[start:page.index("</tr>", start)]


def test_a_private_events_date_is_not_the_last_rated_match_anyone_is_shown(client, world, settings):
    """Regression (issue 49): the list, the profile and the API showed 08.03 — the private night's date —
    as Anna's last rated match, and "active in the last N months" counted it."""
    anna = world["anna"]
    assert PlayerRating.objects.get(player=anna).last_played.isoformat() == "2026-03-08"  # stored: the sequence's
    page = client.get(reverse("rating-list"), {"pool": "backgammon"}).content.decode()
    assert "2026-03-01" in _row(page, "Annina") and "2026-03-08" not in page
    assert "—" in _row(page, "Verina")  # she played only privately: no date to show
    api = {r["name_latin"]: r for r in client.get("/api/ratings/?pool=backgammon").json()["results"]}
    assert api["Annina"]["last_played"] == "2026-03-01" and api["Verina"]["last_played"] is None
    profile = client.get(reverse("player-profile", kwargs={"player_id": anna.pk})).content.decode()
    assert "2026-03-08" not in profile and "2026-03-01" in profile
    sheet = load_workbook(io.BytesIO(client.get(reverse("rating-export")).content)).active
    dates = {row[1]: row[9] for row in sheet.iter_rows(min_row=4, values_only=True)}
    assert dates["Annina"].date().isoformat() == "2026-03-01" and dates["Verina"] is None  # listed, no date


def test_the_months_filter_counts_only_released_events(client, club):
    """Regression (issue 49): a player active only at a private night counted as "active this month"."""
    import datetime as dt

    from django.utils import timezone

    today = timezone.localdate()
    lena, oleg = (PlayerFactory(last_name=n, first_name="", last_name_latin=n, first_name_latin="")
                  for n in ("Lena", "Oleg"))  # fmt: skip
    for public, days_ago in ((True, 100), (False, 10)):
        event = TournamentFactory(club=club, public=public, starts_on=today - dt.timedelta(days=days_ago), rated=True)
        ea, eb = enter(event, [lena, oleg])
        MatchFactory(round=RoundFactory(tournament=event, number=1, finished=True), table=1, entry_a=ea,
                     entry_b=eb, confirmed=True, score_a=5, score_b=2, winner="a")  # fmt: skip
    ratings_service.recompute("backgammon", 1)
    recent = client.get(reverse("rating-list"), {"pool": "backgammon", "months": 1}).content.decode()
    assert "Lena" not in recent and "Oleg" not in recent
    wider = client.get(reverse("rating-list"), {"pool": "backgammon", "months": 4}).content.decode()
    assert "Lena" in wider and "Oleg" in wider
    api = client.get("/api/ratings/", {"pool": "backgammon", "months": 1}).json()
    assert api["count"] == 0
