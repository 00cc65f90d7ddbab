"""Teams over the API: the teams page's forms, services, refusals and audit trail."""

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, EntryFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEntry, Official, OfficialRole, TeamMember

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(slug="sch", system="scheveningen")


@pytest.fixture
def api(tournament):
    user = UserFactory(username="org")
    Official.objects.create(tournament=tournament, user=user, role=OfficialRole.ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return client


URL = "/api/tournaments/sch/teams/"


def test_an_organiser_builds_two_line_ups_and_everyone_reads_them(api, tournament):
    club = ClubFactory(slug="zarik")
    a, b = (EntryFactory(tournament=tournament) for _ in range(2))
    created = api.post(URL, {"name": "Зарик-1", "club": "zarik"}, format="json")
    assert created.status_code == 201, created.json()
    team = created.json()["id"]
    assert created.json()["club"] == club.slug
    assert api.post(f"{URL}{team}/members/", {"entry": a.pk, "board": 1}, format="json").status_code == 200
    assert api.post(f"{URL}{team}/members/", {"entry": b.pk, "board": 2}, format="json").status_code == 200
    read = APIClient().get(URL).json()["results"]
    assert [(m["board"], m["name"]) for m in read[0]["members"]] == [
        (1, a.player.full_name), (2, b.player.full_name)
    ]
    actions = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions.count("team.add") == 1 and actions.count("team.change") == 2


def test_a_taken_name_or_board_is_a_field_error_in_the_requested_language(api, tournament):
    a, b = (EntryFactory(tournament=tournament) for _ in range(2))
    team = api.post(URL, {"name": "Север"}, format="json").json()["id"]
    again = api.post(URL, {"name": "север"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 400 and "name" in again.json()["errors"]
    api.post(f"{URL}{team}/members/", {"entry": a.pk, "board": 1}, format="json")
    clash = api.post(f"{URL}{team}/members/", {"entry": b.pk, "board": 1}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert clash.status_code == 400
    assert "занята" in clash.json()["errors"]["board"][0]
    assert not TeamMember.objects.filter(entry=b).exists()


def test_take_off_and_delete_only_before_pairing(api, tournament):
    a = EntryFactory(tournament=tournament)
    team = api.post(URL, {"name": "Юг"}, format="json").json()["id"]
    api.post(f"{URL}{team}/members/", {"entry": a.pk, "board": 1}, format="json")
    assert api.delete(f"{URL}{team}/members/{a.pk}/").status_code == 204
    assert not TeamMember.objects.filter(entry=a).exists()
    RoundFactory(tournament=tournament, number=1)
    refused = api.delete(f"{URL}{team}/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 409
    assert refused.json()["code"] == "entry.team_in_play"


def test_strangers_read_but_cannot_change(api, tournament):
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.post(URL, {"name": "X"}, format="json").status_code == 403
    assert stranger.get(URL).status_code == 200
