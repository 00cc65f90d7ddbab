"""The issue's proof: a 16-player Swiss from creation to final standings over nothing but HTTP.

Only a club organiser's account and their read-write API token exist beforehand
(the token is what the organiser creates on their account page); everything else
is requests with ``Authorization: Token …`` — no session, no CSRF, no ORM.
"""

import pytest
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope

pytestmark = pytest.mark.django_db

ROUNDS = 4


def test_a_16_player_swiss_over_http_only():
    club = ClubFactory()
    director = UserFactory(username="director")
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "integration", TokenScope.WRITE)
    http = Client(HTTP_AUTHORIZATION=f"Token {key}")

    calls = []

    def call(method, url, data=None, ok=(200, 201)):
        calls.append(url)
        answer = getattr(http, method)(url, data, content_type="application/json")
        assert answer.status_code in ok, (url, answer.status_code, answer.content[:500])
        return answer.json() if answer.content else None

    created = call("post", "/api/tournaments/", {
        "club": club.slug, "name": "Кубок API", "slug": "api-cup", "starts_on": "2026-05-01",
        "system": "swiss", "rounds_planned": ROUNDS, "match_length": 5, "variant": "backgammon",
    })  # fmt: skip
    slug = created["slug"]
    players = [{"last_name": f"Игроков{i:02d}", "first_name": "Пётр", "last_name_latin": f"Igrokov{i:02d}",
                "category": 1 + i % 9} for i in range(16)]
    call("post", f"/api/tournaments/{slug}/entries/", players)
    call("patch", f"/api/tournaments/{slug}/", {"seeding": "registration"})
    for number in range(1, ROUNDS + 1):
        [rnd] = call("post", f"/api/tournaments/{slug}/generate/", {})["rounds"]
        assert rnd["number"] == number and len(rnd["pairings"]) == 8
        call("post", f"/api/rounds/{rnd['id']}/publish/")
        for pairing in rnd["pairings"]:
            match = pairing["match"]
            # odd rounds through the flat routes, even rounds through the tournament's nested ones
            base = "/api/matches" if number % 2 else f"/api/tournaments/{slug}/matches"
            assert call("post", f"{base}/{match}/check/", {"final": [5, 2]})["ok"] is True
            reported = call("post", f"{base}/{match}/report/", {"final": [5, 2], "version": pairing["version"]})
            if reported["state"] != "confirmed":
                call("post", f"{base}/{match}/confirm/", {"result": reported["id"], "version": reported["match_version"]})
        closed = call("get", f"/api/rounds/{rnd['id']}/")
        if closed["status"] != "finished":
            call("post", f"/api/rounds/{rnd['id']}/close/")
    standings = call("get", f"/api/tournaments/{slug}/standings/")
    rows = standings["sections"][0]["rows"]
    assert len(rows) == 16 and rows[0]["place"] == "1"
    assert standings["rounds"] == list(range(1, ROUNDS + 1))
    print(f"organiser-driven event: {len(calls)} calls")  # the issue asks for the count
    # 3 setup calls; per round generate, publish, a read and per match check (optional), report, confirm; 1 read
    assert len(calls) == 3 + ROUNDS * (3 + 3 * 8) + 1
