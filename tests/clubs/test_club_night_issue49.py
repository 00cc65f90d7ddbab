"""A club night without surprises (issue 49): what an organiser compares is the pool rating.

Regressions: the candidates table and ``/api/players/?q=`` showed a player's declared
rating ("1500") where his pool rating was 1578.48; ``/api/clubs/`` gave no id though an
entry's ``club`` needs one.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ClubRole, ClubRoleKind, Membership, PlayerRating
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.identity.services import merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def kazan():
    return ClubFactory(name="Казань", slug="kazan")


@pytest.fixture
def elena(kazan):
    player = PlayerFactory(last_name="Семёнова", first_name="Елена", last_name_latin="Semyonova",
                           first_name_latin="Elena", rating=1500)  # fmt: skip
    Membership.objects.create(player=player, club=kazan, started_on="2020-01-01")
    PlayerRating.objects.create(player=player, pool="backgammon", rating=1578.48, matches=12)
    return player


def test_the_candidates_table_shows_the_pool_rating_not_the_declared_one(client, kazan, elena):
    organiser = UserFactory()
    ClubRole.objects.create(club=kazan, user=organiser, role=ClubRoleKind.ORGANISER)
    client.force_login(organiser)
    page = client.post(reverse("club-members", kwargs={"slug": kazan.slug}),
                       {"action": "new", "new-last_name": "Semenova", "new-first_name": "Elena", "new-category": 4,
                        "new-started_on": "2026-01-10"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    table = page[page.index("identity-candidates"):page.index("</table>", page.index("identity-candidates"))]
    assert "Backgammon: 1578.48" in table and "declared" not in table
    russian = client.post(reverse("club-members", kwargs={"slug": kazan.slug}),
                          {"action": "new", "new-last_name": "Семенова", "new-first_name": "Елена",
                           "new-category": 4, "new-started_on": "2026-01-10"},
                          HTTP_ACCEPT_LANGUAGE="ru").content.decode()  # fmt: skip
    assert "Нарды-бэкгаммон: 1578,48" in russian


def test_a_candidate_never_rated_shows_the_declared_rating_marked_so(client, kazan):
    PlayerFactory(last_name="Орлов", first_name="Олег", last_name_latin="Orlov", first_name_latin="Oleg",
                  rating=1640)  # fmt: skip
    organiser = UserFactory()
    ClubRole.objects.create(club=kazan, user=organiser, role=ClubRoleKind.ORGANISER)
    client.force_login(organiser)
    page = client.post(reverse("club-members", kwargs={"slug": kazan.slug}),
                       {"action": "new", "new-last_name": "Orlov", "new-first_name": "Oleg", "new-category": 4,
                        "new-started_on": "2026-01-10"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    assert "1640 <small>declared</small>" in page


def test_the_player_search_api_gives_the_pool_ratings(elena):
    [found] = APIClient().get("/api/players/", {"q": "Semyonova"}).json()["results"]
    assert found["ratings"] == {"backgammon": 1578.48} and found["rating"] == 1500
    assert found["clubs"] == ["kazan"]


def test_a_member_until_a_future_date_is_shown_in_the_club_by_the_search_api(kazan):
    player = PlayerFactory(last_name="Лесная", first_name="Анна")
    Membership.objects.create(player=player, club=kazan, started_on="2024-01-01",
                              ended_on=dt.date.today() + dt.timedelta(days=30))  # fmt: skip
    [found] = APIClient().get("/api/players/", {"q": "Лесная"}).json()["results"]
    assert found["clubs"] == ["kazan"]


def test_the_clubs_api_gives_the_id_an_entry_needs(kazan):
    [club] = APIClient().get("/api/clubs/", {"q": "Казань"}).json()["results"]
    assert club["id"] == kazan.pk and club["slug"] == "kazan"


def test_the_club_page_writes_tied_places_as_the_rating_list_does(client, kazan):
    """Regression: the club page numbered two players of equal rating 3 and 4; the list said "3–4"."""
    for name, rating in (("Аа", 1700), ("Бб", 1650), ("Вв", 1600.001), ("Гг", 1599.999), ("Дд", 1500)):
        player = PlayerFactory(last_name=name, first_name="")
        Membership.objects.create(player=player, club=kazan, started_on="2020-01-01")
        PlayerRating.objects.create(player=player, pool="backgammon", rating=rating, matches=5)
    page = client.get(reverse("club-detail", kwargs={"slug": kazan.slug})).content.decode()
    table = page[page.index('class="grid club-ratings"'):page.index("</table>", page.index("club-ratings"))]
    places = re.findall(r'<tr><td class="num">([^<]+)</td>', table)
    assert places == ["1", "2", "3–4", "3–4", "5"]
    listed = client.get(reverse("rating-list"), {"club": kazan.slug, "pool": "backgammon"}).content.decode()
    assert listed.count('<td class="num">3–4</td>') == 2


def test_a_members_future_end_date_is_shown_to_everyone(client, kazan):
    """Regression: "member until" of a current member was shown only on the organisers' page."""
    player = PlayerFactory(last_name="Лесная", first_name="Анна")
    until = dt.date.today() + dt.timedelta(days=40)
    Membership.objects.create(player=player, club=kazan, started_on="2024-01-01", ended_on=until)
    page = client.get(reverse("club-detail", kwargs={"slug": kazan.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    members = page.content.decode().split('id="club-members"', 1)[1].split("</table>", 1)[0]
    assert "Лесная" in members and until.strftime("%d.%m.%Y") in members


def test_the_organisers_of_both_clubs_see_a_merge_in_their_club_log(client, kazan, elena):
    """Regression: the player.merge audit line was visible only in the admin."""
    perm, other = ClubFactory(name="Пермь", slug="perm"), ClubFactory(name="Уфа", slug="ufa")
    twin = PlayerFactory(last_name="Semenova", first_name="Elena", last_name_latin="", first_name_latin="")
    Membership.objects.create(player=twin, club=kazan, started_on="2015-01-01", ended_on="2018-01-01")
    Membership.objects.create(player=twin, club=perm, started_on="2018-02-01")
    boss = UserFactory(username="kazan-boss")
    ClubRole.objects.create(club=kazan, user=boss, role=ClubRoleKind.ORGANISER)
    ClubRole.objects.create(club=perm, user=boss, role=ClubRoleKind.ORGANISER)
    merge(elena, twin, boss, "one person: moved from Perm")
    for club in (kazan, perm):
        organiser = UserFactory()
        ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
        client.force_login(organiser)
        page = client.get(reverse("club-log", kwargs={"slug": club.slug}), HTTP_ACCEPT_LANGUAGE="en")
        log = page.content.decode().split('id="club-log"', 1)[1]
        assert page.status_code == 200 and "Two players merged into one person" in log
        assert "one person: moved from Perm" in log and "kazan-boss" in log
        detail = client.get(reverse("club-detail", kwargs={"slug": club.slug})).content.decode()
        assert 'id="club-log-link"' in detail
    stranger = UserFactory()
    ClubRole.objects.create(club=other, user=stranger, role=ClubRoleKind.ORGANISER)
    client.force_login(stranger)
    assert client.get(reverse("club-log", kwargs={"slug": kazan.slug})).status_code == 403
    own = client.get(reverse("club-log", kwargs={"slug": other.slug}), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Два игрока объединены" not in own and "Журнал клуба" in own
