"""Dates and categories (issue 37): a future end date, a back-dated category change, the city filter."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubs.categories import change_category
from clubs.models import ClubRole, Membership, PlayerRating
from clubs.rating_lists import Filters, rating_list
from scoring.rules.errors import RuleViolation
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import AuditEntry
from tournaments.player_history import last_public_played

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="Казанский клуб", slug="kazan")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    return user


def test_a_membership_ending_on_a_future_date_is_current_until_then(client, club, organiser):
    player = PlayerFactory(last_name="Будущев")
    membership = Membership.objects.create(player=player, club=club, started_on=dt.date(2020, 1, 1))
    PlayerRating.objects.create(player=player, pool="backgammon", rating=1600, experience=10, matches=2)
    client.force_login(organiser)
    until = dt.date.today() + dt.timedelta(days=200)
    response = client.post(reverse("club-members", kwargs={"slug": club.slug}), {
        "action": "end", "membership": membership.pk, f"end{membership.pk}-ended_on": until.isoformat()},
        HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert response.status_code == 302
    membership.refresh_from_db()
    assert membership.ended_on == until and membership.is_current()
    page = client.get(reverse("club-detail", kwargs={"slug": club.slug}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    current, _, former = page.partition('id="club-past-members"')
    assert "Будущев" in current and "Будущев" not in former
    assert [r.player for r in rating_list(Filters(pool="backgammon", club=club), last_public_played())] == [player]  # still on the club's list
    assert not Membership.objects.filter(Membership.current_q(on=until + dt.timedelta(days=1)), pk=membership.pk).exists()


def test_a_forgotten_earlier_category_change_takes_its_place_by_date(club, client):
    """Regression (issue 49): a change dated before the last one was refused ("cannot be dated
    earlier"), so a forgotten change could never be entered; now it takes its place by date."""
    player = PlayerFactory(category=6)
    change_category(player, 7, reason="1st place, spring cup", on=dt.date(2026, 3, 1))
    change_category(player, 5, reason="entered late: the winter ruling", on=dt.date(2026, 2, 1))
    player.refresh_from_db()
    assert player.category == 7  # the latest change still decides
    history = list(player.category_changes.order_by("on").values_list("on", "category_from", "category_to"))
    assert history == [(dt.date(2026, 2, 1), 6, 5), (dt.date(2026, 3, 1), 5, 7)]  # the chain holds
    with pytest.raises(RuleViolation) as same:
        change_category(player, 5, reason="again", on=dt.date(2026, 2, 10))  # 5 was in force that day
    assert [p.code for p in same.value.problems] == ["club.category_unchanged"]
    change_category(player, 5, reason="ruling of the jury", on=dt.date(2026, 3, 1))  # the same day, entered later
    player.refresh_from_db()
    assert player.category == 5 and player.category_changes.first().category_to == 5
    page = client.get(reverse("player-profile", kwargs={"player_id": player.pk}), HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert body.index("ruling of the jury") < body.index("1st place, spring cup") < body.index("the winter ruling")


def test_a_category_refusal_writes_its_date_the_russian_way(club):
    """Regression (issue 49): Russian messages said "2027-01-05"."""
    player = PlayerFactory(category=3)
    future = dt.date.today() + dt.timedelta(days=30)
    with pytest.raises(RuleViolation) as refused:
        change_category(player, 4, reason="x", on=future)
    [problem] = refused.value.problems
    assert future.strftime("%d.%m.%Y") in problem.message("ru") and future.isoformat() not in problem.message("ru")
    assert future.isoformat() in problem.message("en")


@pytest.mark.parametrize("typed", ["Казань", "казань", "КАЗАНЬ", " казань "])
def test_the_city_filter_ignores_case_in_cyrillic(typed):
    a = PlayerFactory(city="Казань")
    b = PlayerFactory(city="казань")
    PlayerFactory(city="Пермь")
    for p in (a, b):
        PlayerRating.objects.create(player=p, pool="backgammon", rating=1500, experience=5, matches=1)
    found = {r.player_id for r in rating_list(Filters(pool="backgammon", city=typed), last_public_played())}
    assert found == {a.pk, b.pk}


def test_an_organiser_edits_a_members_details_without_the_admin(client, club, organiser):
    player = PlayerFactory(last_name="Гусейнов", first_name="Эльдар", last_name_latin="", city="")
    Membership.objects.create(player=player, club=club, started_on=dt.date(2020, 1, 1))
    client.force_login(organiser)
    url = reverse("player-details", kwargs={"player_id": player.pk})
    data = {"last_name": "Гусейнов", "first_name": "Эльдар", "last_name_latin": "Guseinov",
            "first_name_latin": "Eldar", "city": "Казань", "country": "RU", "birth_year": "1985", "email": ""}  # fmt: skip
    assert client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert (player.latin_name, player.city, player.birth_year) == ("Eldar Guseinov", "Казань", 1985)
    assert "guseinov" in player.search_key  # found by the Latin name from now on
    assert AuditEntry.objects.filter(action="player.edit", object_id=player.pk).exists()
    bad = client.post(url, {**data, "birth_year": "1850"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and 'value="1850"' in bad.content.decode()  # what was typed is kept


def test_the_category_page_takes_a_forgotten_earlier_change(client, club, organiser):
    player = PlayerFactory(category=6)
    Membership.objects.create(player=player, club=club, started_on=dt.date(2020, 1, 1))
    change_category(player, 7, reason="1st place", on=dt.date(2026, 3, 1))
    client.force_login(organiser)
    page = client.post(reverse("player-category", kwargs={"player_id": player.pk}),
                       {"category": 5, "on": "2026-02-01", "reason": "late"}, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert page.status_code == 302
    player.refresh_from_db()
    assert player.category == 7 and player.category_changes.get(reason="late").category_from == 6
