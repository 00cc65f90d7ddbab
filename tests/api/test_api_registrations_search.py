"""Issue 28 item 7: registrations over the API (the public form's and the organiser's rules),
and the players and clubs search (paginated with ``Link`` headers, any alphabet, no emails)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    ClubFactory,
    EntryFactory,
    OfficialFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import Entry, OfficialRole, Registration, RegistrationStatus, TokenScope

pytestmark = pytest.mark.django_db

APPLICATION = {"last_name": "Петров", "first_name": "Иван", "email": "ivan@example.org", "category": 4}


def api(user=None) -> Client:
    if user is None:
        return Client(HTTP_ACCEPT_LANGUAGE="en")
    _token, key = issue_token(user, "test", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def event():
    tournament = TournamentFactory(slug="open-cup", registration_open=True, registration_approval=True)
    director = UserFactory()
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    return tournament, api(director)


URL = "/api/tournaments/open-cup/registrations/"


def test_visitor_applies_and_the_organiser_lists_and_approves(event):
    tournament, director = event
    applied = api().post(URL, APPLICATION, content_type="application/json")
    assert applied.status_code == 201, applied.content
    assert applied.json()["status"] == "pending"
    assert "email" not in applied.json()
    listed = director.get(URL)
    assert [r["last_name"] for r in listed.json()["results"]] == ["Петров"]
    approved = director.post(f"{URL}{applied.json()['id']}/approve/", {}, content_type="application/json")
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "approved"
    assert Entry.objects.get(pk=approved.json()["entry"]).player.last_name == "Петров"


def test_registration_refused_is_emailed_its_reason_and_frees_nothing_twice(event, mailoutbox):
    _tournament, director = event
    reg_id = api().post(URL, APPLICATION, content_type="application/json").json()["id"]
    refused = director.post(f"{URL}{reg_id}/refuse/", {"reason": "juniors only"}, content_type="application/json")
    assert refused.json()["status"] == "refused"
    assert any("juniors only" in m.body for m in mailoutbox)
    again = director.post(f"{URL}{reg_id}/approve/", {}, content_type="application/json")
    assert again.status_code == 409
    assert again.json()["code"] == "registration.decided"


def test_registration_closed_answers_a_problem(event):
    tournament, _director = event
    tournament.registration_open = False
    tournament.save()
    answer = api().post(URL, APPLICATION, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "registration.closed"


def test_registration_application_with_a_missing_field_names_it(event):
    answer = api().post(URL, {**APPLICATION, "email": "not-an-email"}, content_type="application/json")
    assert answer.status_code == 400
    assert "email" in answer.json()["errors"]
    assert not Registration.objects.exists()


def test_registration_list_and_decisions_are_the_organisers_only(event):
    _tournament, _director = event
    reg_id = api().post(URL, APPLICATION, content_type="application/json").json()["id"]
    player = api(UserFactory())
    assert player.get(URL).status_code == 403
    assert player.post(f"{URL}{reg_id}/approve/", {}, content_type="application/json").status_code == 403
    assert Registration.objects.get(pk=reg_id).status == RegistrationStatus.PENDING


def test_registration_over_the_limit_needs_a_reason(event):
    tournament, director = event
    tournament.entry_limit = 1
    tournament.save()
    EntryFactory(tournament=tournament)
    applied = api().post(URL, APPLICATION, content_type="application/json").json()
    assert applied["status"] == "waitlisted"
    refused = director.post(f"{URL}{applied['id']}/approve/", {}, content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "registration.full"
    assert "over_limit_reason" in refused.json()["errors"]
    approved = director.post(f"{URL}{applied['id']}/approve/", {"over_limit_reason": "the sponsor's guest"},
                             content_type="application/json")  # fmt: skip
    assert approved.json()["status"] == "approved"


def test_registration_of_a_known_name_shows_candidates_and_approves_as_the_chosen_player(event):
    _tournament, director = event
    known = PlayerFactory(last_name="Петров", first_name="Иван", email="secret@example.org")
    reg_id = api().post(URL, APPLICATION, content_type="application/json").json()["id"]
    shown = director.get(f"{URL}{reg_id}/").json()
    assert [c["player"] for c in shown["candidates"]] == [known.pk]
    assert "secret@example.org" not in str(shown)
    approved = director.post(f"{URL}{reg_id}/approve/", {"player": str(known.pk)}, content_type="application/json")
    assert approved.status_code == 200, approved.content
    assert Entry.objects.get(pk=approved.json()["entry"]).player == known


def test_registration_application_with_a_misspelt_field_is_refused_by_name(event):
    answer = api().post(URL, {**APPLICATION, "club_nmae": "Нарды"}, content_type="application/json")
    assert answer.status_code == 400
    assert "club_nmae" in answer.json()["errors"]
    assert not Registration.objects.exists()


# --- players and clubs search ------------------------------------------------------------------------


def test_player_search_finds_cyrillic_names_typed_in_latin_and_hides_emails():
    PlayerFactory(last_name="Семёнов", first_name="Пётр", last_name_latin="", first_name_latin="",
                  email="semenov@example.org")  # fmt: skip
    PlayerFactory(last_name="Иванов", first_name="Иван")
    answer = api().get("/api/players/", {"q": "Semenov"})
    assert answer.status_code == 200
    assert [p["name"] for p in answer.json()["results"]] == ["Семёнов Пётр"]
    assert "semenov@example.org" not in answer.content.decode()
    assert "email" not in answer.json()["results"][0]


def test_player_search_pages_carry_link_headers():
    for i in range(3):
        PlayerFactory(last_name=f"Петров{i}", first_name="Иван")
    first = api().get("/api/players/", {"q": "петров", "page_size": 2})
    assert first.json()["count"] == 3
    assert 'rel="next"' in first["Link"] and 'rel="last"' in first["Link"]
    second = api().get("/api/players/", {"q": "петров", "page_size": 2, "page": 2})
    assert len(second.json()["results"]) == 1
    assert 'rel="prev"' in second["Link"]


def test_player_search_shows_current_clubs():
    club = ClubFactory(slug="nardy-club")
    player = PlayerFactory(last_name="Арутюнян")
    player.memberships.create(club=club, started_on="2025-01-01")
    [found] = api().get("/api/players/", {"q": "Arutyunyan"}).json()["results"]
    assert found["clubs"] == ["nardy-club"]


def test_club_search_matches_name_or_city_in_any_alphabet():
    ClubFactory(name="Нарды Ереван", slug="yerevan", city="Ереван")
    ClubFactory(name="Шеш-беш", slug="baku", city="Баку")
    answer = api().get("/api/clubs/", {"q": "Baku"})
    assert [c["slug"] for c in answer.json()["results"]] == ["baku"]
    assert api().get("/api/clubs/").json()["count"] == 2
