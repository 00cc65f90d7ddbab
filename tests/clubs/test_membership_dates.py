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
    assert [r.player for r in rating_list(Filters(pool="backgammon", club=club))] == [player]  # still on the club's list
    assert not Membership.objects.filter(Membership.current_q(on=until + dt.timedelta(days=1)), pk=membership.pk).exists()


def test_a_back_dated_category_change_is_refused_and_the_current_category_is_the_latest(club):
    player = PlayerFactory(category=6)
    change_category(player, 7, reason="1st place, spring cup", on=dt.date(2026, 3, 1))
    with pytest.raises(RuleViolation) as refused:
        change_category(player, 5, reason="entered late", on=dt.date(2026, 2, 1))
    assert [p.code for p in refused.value.problems] == ["club.category_backdated"]
    player.refresh_from_db()
    assert player.category == 7
    history = list(player.category_changes.values_list("on", "category_to"))
    assert history == [(dt.date(2026, 3, 1), 7)]
    change_category(player, 5, reason="ruling of the jury", on=dt.date(2026, 3, 1))  # the same day is fine
    player.refresh_from_db()
    assert player.category == 5 and player.category_changes.first().category_to == 5


@pytest.mark.parametrize("typed", ["Казань", "казань", "КАЗАНЬ", " казань "])
def test_the_city_filter_ignores_case_in_cyrillic(typed):
    a = PlayerFactory(city="Казань")
    b = PlayerFactory(city="казань")
    PlayerFactory(city="Пермь")
    for p in (a, b):
        PlayerRating.objects.create(player=p, pool="backgammon", rating=1500, experience=5, matches=1)
    found = {r.player_id for r in rating_list(Filters(pool="backgammon", city=typed))}
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


def test_a_back_dated_category_change_is_shown_on_the_date_field(client, club, organiser):
    player = PlayerFactory(category=6)
    Membership.objects.create(player=player, club=club, started_on=dt.date(2020, 1, 1))
    change_category(player, 7, reason="1st place", on=dt.date(2026, 3, 1))
    client.force_login(organiser)
    page = client.post(reverse("player-category", kwargs={"player_id": player.pk}),
                       {"category": 5, "on": "2026-02-01", "reason": "late"}, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert "cannot be dated earlier" in page.content.decode()
    player.refresh_from_db()
    assert player.category == 7
