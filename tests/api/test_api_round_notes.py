"""Issue 27 on the API: a round's resource says who sits it out on their own request, with the points."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope

pytestmark = pytest.mark.django_db


def test_a_requested_half_point_bye_is_in_the_rounds_notes_in_the_readers_language():
    club = ClubFactory(slug="zarik")
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "notes", TokenScope.WRITE)
    http = Client(HTTP_AUTHORIZATION=f"Token {key}")

    def post(url, body):
        answer = http.post(url, body, content_type="application/json")
        assert answer.status_code in (200, 201), answer.content
        return answer.json()

    post("/api/tournaments/", {
        "club": "zarik", "name": "Bye notes", "slug": "bye-notes", "starts_on": "2026-05-01", "system": "swiss",
        "rounds_planned": 3, "seeding": "registration", "public": True, "swiss__half_bye_points": 0.5,
    })  # fmt: skip
    entries = post("/api/tournaments/bye-notes/entries/", [
        {"last_name": f"Бай{i}", "last_name_latin": f"Bai{i}", "category": 5} for i in range(5)
    ])  # fmt: skip
    post("/api/tournaments/bye-notes/bye-requests/", {"entry": entries[2]["id"], "round": 1})
    [rnd] = post("/api/tournaments/bye-notes/generate/", {})["rounds"]
    post(f"/api/rounds/{rnd['id']}/publish/", None)
    english = Client().get(f"/api/rounds/{rnd['id']}/?lang=en").json()["notes"]
    assert "Not paired this round, on their own request: Bai2 (½ pt)" in english
    russian = Client().get(f"/api/rounds/{rnd['id']}/?lang=ru").json()["notes"]
    assert "Без пары в этом туре по своей просьбе: Бай2 (½ очк.)" in russian
    assert sum("on their own request" in note for note in english) == 1  # named once, with the round
