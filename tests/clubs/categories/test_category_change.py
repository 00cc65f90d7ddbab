"""A club organiser moves a member's category with a date and a reason; the history keeps it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubs.categories import change_category
from clubs.models import CategoryChange, ClubRole, ClubRoleKind, Membership
from scoring.rules.errors import RuleViolation
from tests.factories import (
    ClubFactory,
    OfficialFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    enter,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def member():
    club = ClubFactory()
    player = PlayerFactory(category=3)
    Membership.objects.create(player=player, club=club, started_on=dt.date(2025, 1, 1))
    organiser = UserFactory()
    ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
    return player, organiser


def test_the_change_is_recorded_with_its_reason_and_moves_the_category(member):
    player, organiser = member
    change = change_category(player, 4, reason="1st place, Autumn Cup", on=dt.date(2026, 11, 1), user=organiser)
    player.refresh_from_db()
    assert player.category == 4
    assert (change.category_from, change.category_to, change.reason, change.decided_by) == (
        3, 4, "1st place, Autumn Cup", organiser,
    )


@pytest.mark.parametrize(
    ("category", "reason", "on", "code"),
    [
        (3, "again", None, "club.category_unchanged"),
        (4, "  ", None, "club.category_reason"),
        (12, "x", None, "club.category_unknown"),
        (4, "x", dt.date.today() + dt.timedelta(days=3), "club.category_future"),
    ],
)
def test_bad_changes_are_refused_with_nothing_written(member, category, reason, on, code):
    player, organiser = member
    with pytest.raises(RuleViolation) as info:
        change_category(player, category, reason=reason, on=on, user=organiser)
    assert code in [p.code for p in info.value.problems]
    assert not CategoryChange.objects.exists()
    player.refresh_from_db()
    assert player.category == 3


def test_the_page_changes_it_for_the_clubs_organiser_only(client, member):
    player, organiser = member
    url = reverse("player-category", kwargs={"player_id": player.pk})
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    page = client.post(url, {"category": "5", "on": "2026-11-20", "reason": ""}, HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    assert "Укажите причину смены категории" in page.content.decode()
    assert 'value="2026-11-20"' in page.content.decode()  # what was typed is kept
    page = client.post(url, {"category": "5", "on": "2026-11-20", "reason": "2nd place"}, follow=True)
    assert "2nd place" in page.content.decode()
    player.refresh_from_db()
    assert player.category == 5


def test_the_profile_offers_the_change_to_the_clubs_organiser_only(client, member):
    player, organiser = member
    profile = reverse("player-profile", kwargs={"player_id": player.pk})
    change = reverse("player-category", kwargs={"player_id": player.pk})
    assert change not in client.get(profile).content.decode()
    client.force_login(organiser)
    assert change in client.get(profile).content.decode()


def test_a_club_less_players_category_is_kept_by_the_organisers_of_his_events(client):
    """Regression (issue 49): the page of a player of no club answered 403 to everyone, even the
    organiser and the superuser, with a text about "the players of this match"."""
    loner = PlayerFactory(category=2)
    event = TournamentFactory()
    enter(event, [loner])
    organiser = UserFactory()
    OfficialFactory(tournament=event, user=organiser, role="organiser")
    url = reverse("player-category", kwargs={"player_id": loner.pk})
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    assert client.post(url, {"category": "3", "on": "2026-11-20", "reason": "won the open"}).status_code == 302
    loner.refresh_from_db()
    assert loner.category == 3
    client.force_login(UserFactory(admin=True))
    assert client.get(url).status_code == 200
    client.force_login(UserFactory())
    refused = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    text = refused.content.decode()
    assert refused.status_code == 403 and "players of this match" not in text
    assert "organisers of the events the player entered" in text
    assert "организаторы турниров, в которых он играл" in client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_a_club_members_record_stays_with_the_club_not_an_event_organiser(client, member):
    player, _organiser = member
    event = TournamentFactory()
    enter(event, [player])
    stranger = UserFactory()
    OfficialFactory(tournament=event, user=stranger, role="organiser")
    client.force_login(stranger)
    assert client.get(reverse("player-category", kwargs={"player_id": player.pk})).status_code == 403
