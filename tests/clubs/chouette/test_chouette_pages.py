"""Chouette pages: a club organiser starts a session, enters games; everyone reads totals and the workbook."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import ChouetteGame, ChouetteSession, ClubRole
from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry
from zarik.management.demo import load_demo

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


def _start(client, club, cube_mode: str = "own") -> ChouetteSession:
    response = client.post(
        reverse("chouette-new", kwargs={"slug": club.slug}),
        {"name": "Пятница", "played_on": "2026-11-20", "player_names": "Анна\nБорис\nВера\nГлеб",
         "cube_mode": cube_mode, "stake": "10"},
    )  # fmt: skip
    assert response.status_code == 302
    return ChouetteSession.objects.get()


def _game(client, session, *, box, captain, winner, kind="single", cubes=None, passed=()):
    data = {"box": box, "captain": captain, "winner": winner, "kind": kind}
    for index, player in enumerate(session.players):
        if player == box:
            continue  # the page shows no row for the box
        data[f"cube_{index}"] = str((cubes or {}).get(player, 1))
        if player in passed:
            data[f"passed_{index}"] = "on"
    url = reverse("chouette-session", kwargs={"slug": session.club.slug, "pk": session.pk})
    return client.post(url, data)


def test_an_organiser_enters_games_and_the_totals_follow_the_book(client, club, organiser) -> None:
    client.force_login(organiser)
    session = _start(client, club)
    assert session.players == ["Анна", "Борис", "Вера", "Глеб"]
    # Game 1: the team wins a gammon; Борис (captain) becomes the box, Анна goes to the queue.
    assert _game(client, session, box="Анна", captain="Борис", winner="team", kind="gammon").status_code == 302
    # Game 2: Борис is box, Вера captain; the box doubles Глеб, who passes; the box wins.
    response = _game(client, session, box="Борис", captain="Вера", winner="box",
                     cubes={"Глеб": 2}, passed={"Глеб"})  # fmt: skip
    assert response.status_code == 302
    page = client.get(reverse("chouette-session", kwargs={"slug": "zarik", "pk": session.pk})).content.decode()
    # Анна −6 +(−1) … : game 1 −6/+2/+2/+2, game 2 Борис +1 +1 +1 from Вера, Анна and Глеб's pass.
    assert 'data-player="Анна">-7<' in page and 'data-player="Борис">5<' in page
    assert 'data-player="Вера">1<' in page and 'data-player="Глеб">1<' in page
    assert "Next game: the box is Борис, the captain Глеб." in page
    assert AuditEntry.objects.filter(action="chouette.game").count() == 2
    listing = client.get(reverse("chouette-list", kwargs={"slug": "zarik"})).content.decode()
    assert "Пятница" in listing and "Анна -7" in listing and "Борис +5" in listing
    assert reverse("chouette-list", kwargs={"slug": "zarik"}) in client.get(
        reverse("club-detail", kwargs={"slug": "zarik"})
    ).content.decode()


def test_a_game_out_of_rotation_is_refused_with_the_expected_seats_and_the_input_kept(client, club, organiser):
    client.force_login(organiser)
    session = _start(client, club)
    response = _game(client, session, box="Вера", captain="Борис", winner="team", cubes={"Глеб": 4})
    assert response.status_code == 400
    page = response.content.decode()
    assert "By the rotation the box is Анна and the captain Борис" in page
    assert 'value="Вера" selected' in page  # what was typed is kept
    assert ChouetteGame.objects.count() == 0
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    response = _game(client, session, box="Анна", captain="Борис", winner="box", passed={"Вера"})
    assert response.status_code == 400
    assert "спасовал, но куб не поворачивали" in response.content.decode()


def test_undo_and_export_and_permissions(client, club, organiser) -> None:
    client.force_login(organiser)
    session = _start(client, club)
    _game(client, session, box="Анна", captain="Борис", winner="box")
    _game(client, session, box="Анна", captain="Вера", winner="box")
    client.post(reverse("chouette-undo", kwargs={"slug": "zarik", "pk": session.pk}))
    assert list(session.games.values_list("number", flat=True)) == [1]
    response = client.get(reverse("chouette-export", kwargs={"slug": "zarik", "pk": session.pk}))
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert ["Game", "Box", "Captain"] == values[2][:3]
    assert values[3][:5] == [1, "Анна", "Борис", "the box", "single game"]
    total = next(row for row in values if row[1] == "Total")
    assert list(total[5:9]) == [3, -1, -1, -1]
    money = next(row for row in values if row[1] == "Total × stake")
    assert list(money[5:9]) == [30, -10, -10, -10]
    # Someone else reads the page but gets no form, and may not post a game or start a session.
    client.logout()
    client.force_login(UserFactory(username="guest"))
    page = client.get(reverse("chouette-session", kwargs={"slug": "zarik", "pk": session.pk})).content.decode()
    assert "chouette-game-form" not in page and "Анна" in page
    assert _game(client, session, box="Анна", captain="Вера", winner="box").status_code == 403
    assert client.get(reverse("chouette-new", kwargs={"slug": "zarik"})).status_code == 403


def test_a_bad_player_list_is_refused_on_the_form(client, club, organiser) -> None:
    client.force_login(organiser)
    response = client.post(
        reverse("chouette-new", kwargs={"slug": club.slug}),
        {"name": "x", "played_on": "2026-11-20", "player_names": "Анна\nАнна", "cube_mode": "own", "stake": "1"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "is listed twice" in page and "at least three players" in page
    assert "Анна\nАнна" in page


def test_the_demo_has_a_chouette_night_with_totals(client) -> None:
    load_demo()
    load_demo()  # idempotent: the games are entered once
    session = ChouetteSession.objects.get(name="Пятничный швец")
    assert session.games.count() == 3
    page = client.get(reverse("chouette-list", kwargs={"slug": session.club.slug})).content.decode()
    assert "Пятничный швец" in page


def test_under_a_common_cube_a_pass_with_every_cube_at_one_is_refused_and_not_charged(client, club, organiser) -> None:
    """Issue 46: "passed the double" with every cube at 1 under the common cube was accepted
    and charged; nobody passes a double never offered, and the common cube is one value."""
    client.force_login(organiser)
    session = _start(client, club, cube_mode="common")
    assert session.cube_mode == "common"
    response = _game(client, session, box="Анна", captain="Борис", winner="box", passed={"Вера"})
    assert response.status_code == 400
    assert "nobody passes without a double" in response.content.decode()
    response = _game(client, session, box="Анна", captain="Борис", winner="box",
                     cubes={"Вера": 2}, passed={"Вера"})  # fmt: skip
    assert response.status_code == 400 and "one common cube" in response.content.decode()
    assert ChouetteGame.objects.count() == 0
    response = _game(client, session, box="Анна", captain="Борис", winner="box",
                     cubes={"Борис": 2, "Вера": 2, "Глеб": 2}, passed={"Вера"})  # fmt: skip
    assert response.status_code == 302 and ChouetteGame.objects.count() == 1
