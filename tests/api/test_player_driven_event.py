"""Issue 28: a player-driven event over the API alone — the players report and confirm, no official does.

The organiser creates the event, enters the players and pairs and publishes each
round; every result is reported by one player's token and confirmed by the
opponent's, each finding their match at ``GET /api/me/matches/`` and the pending
report (its id, score, who reported it) in the match's ``result_state`` — never
from the source or the database.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from scoring.models import Result, ResultState
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope

pytestmark = pytest.mark.django_db

ROUNDS = 3
PLAYERS = 8


class Api:
    """One token's HTTP client that counts its calls (the issue asks for the call count)."""

    calls = 0

    def __init__(self, user):
        _token, key = issue_token(user, "integration", TokenScope.WRITE)
        self.http = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")

    def __call__(self, method, url, data=None, ok=(200, 201)):
        Api.calls += 1
        answer = getattr(self.http, method)(url, data, content_type="application/json")
        assert answer.status_code in ok, (url, answer.status_code, answer.content[:500])
        return answer.json() if answer.content else None


def _action(match: dict, name: str) -> dict:
    [found] = [a for a in match["result_state"]["actions"] if a["action"] == name]
    return found


def _event(rounds: int = ROUNDS):
    """The organiser's event (released, seeded by registration) and one API client per player."""
    club = ClubFactory()
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    organiser = Api(director)
    players = {}
    for _ in range(PLAYERS):
        user = UserFactory()
        player = PlayerFactory(user=user)
        players[player.pk] = Api(user)
    organiser("post", "/api/tournaments/", {
        "club": club.slug, "name": "Players' Friday", "slug": "players-friday", "starts_on": "2026-05-01",
        "system": "swiss", "rounds_planned": rounds, "match_length": 5, "variant": "backgammon",
        "public": True, "seeding": "registration",
    })  # fmt: skip
    entries = organiser("post", "/api/tournaments/players-friday/entries/", [{"player": pk} for pk in players])
    by_entry = {e["id"]: players[e["player"]] for e in entries}
    return organiser, by_entry


def test_a_swiss_is_played_to_the_end_by_the_players_tokens_alone():
    Api.calls = 0
    organiser, player_of = _event()
    for number in range(1, ROUNDS + 1):
        [rnd] = organiser("post", "/api/tournaments/players-friday/generate/", {})["rounds"]
        organiser("post", f"/api/rounds/{rnd['id']}/publish/")
        for pairing in rnd["pairings"]:
            a = player_of[pairing["player_a"]["entry"]]
            b = player_of[pairing["player_b"]["entry"]]
            [mine] = a("get", "/api/me/matches/")["results"]
            assert mine["id"] == pairing["match"] and mine["round"] == number
            report = _action(mine, "report")
            a(report["method"].lower(), report["href"], {**report["body"], "final": [5, 2]})
            # the opponent reads what was reported, and confirms it with what they read
            [theirs] = b("get", "/api/me/matches/")["results"]
            pending = theirs["result_state"]["pending_report"]
            assert (pending["score_a"], pending["score_b"], pending["reported_side"]) == (5, 2, "a")
            assert pending["reported_by"] == pairing["player_a"]["name_latin"]
            confirm = _action(theirs, "confirm")
            assert confirm["body"] == {"result": pending["id"], "version": theirs["version"]}
            confirmed = b("post", confirm["href"], confirm["body"])
            assert confirmed["state"] == "confirmed"
        assert organiser("get", f"/api/rounds/{rnd['id']}/")["status"] == "finished"
    standings = organiser("get", "/api/tournaments/players-friday/standings/")
    assert len(standings["sections"][0]["rows"]) == PLAYERS
    assert standings["rounds"] == list(range(1, ROUNDS + 1))
    assert not Result.objects.filter(state=ResultState.REPORTED).exists()
    print(f"player-driven event: {Api.calls} calls")  # the issue asks for the count
    # 2 setup calls, 2 per round for the organiser (+1 read), 4 per match for the players, 1 read
    assert Api.calls == 2 + ROUNDS * (3 + 4 * PLAYERS // 2) + 1


def _first_match(organiser, player_of):
    [rnd] = organiser("post", "/api/tournaments/players-friday/generate/", {})["rounds"]
    organiser("post", f"/api/rounds/{rnd['id']}/publish/")
    pairing = rnd["pairings"][0]
    return player_of[pairing["player_a"]["entry"]], player_of[pairing["player_b"]["entry"]], pairing


def test_a_counter_report_of_the_same_score_confirms_and_another_score_is_refused_with_the_pending_one():
    organiser, player_of = _event(rounds=1)
    a, b, pairing = _first_match(organiser, player_of)
    url = f"/api/matches/{pairing['match']}/"
    a("post", url + "report/", {"final": [5, 3], "version": pairing["version"]})
    version = b("get", url)["version"]
    refused = b.http.post(url + "report/", {"final": [3, 5], "version": version}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "workflow.conflict" and "5:3" in refused.json()["detail"]
    agreed = b("post", url + "report/", {"final": [5, 3], "version": version})
    assert agreed["state"] == "confirmed"
    state = b("get", url)["result_state"]
    assert state["pending_report"] is None and state["confirmed_result"]["id"] == agreed["id"]
    assert state["actions"] == []  # both players agreed to it: neither may report again nor dispute it


def test_the_opponent_disputes_a_pending_report_from_the_match_they_read():
    organiser, player_of = _event(rounds=1)
    a, b, pairing = _first_match(organiser, player_of)
    url = f"/api/matches/{pairing['match']}/"
    a("post", url + "report/", {"final": [5, 0], "version": pairing["version"]})
    dispute = _action(b("get", url), "dispute")
    raised = b("post", dispute["href"], {**dispute["body"], "reason": "It was 5:4"})
    state = b("get", url)["result_state"]
    assert state["dispute"]["id"] == raised["id"] and state["dispute"]["href"] == f"/api/disputes/{raised['id']}/"
    assert b("get", state["dispute"]["href"])["reason"] == "It was 5:4"


def test_a_pending_report_is_shown_to_the_match_s_players_and_officials_only():
    organiser, player_of = _event(rounds=1)
    a, b, pairing = _first_match(organiser, player_of)
    url = f"/api/matches/{pairing['match']}/"
    a("post", url + "report/", {"final": [5, 1], "version": pairing["version"]})
    assert organiser("get", url)["result_state"]["pending_report"]["score_a"] == 5
    outsider = next(p for p in player_of.values() if p not in (a, b))
    assert outsider("get", url)["result_state"] == {
        "pending_report": None, "confirmed_result": None, "dispute": None, "actions": [],
    }  # fmt: skip
    anonymous = Client().get(url).json()["result_state"]
    assert anonymous["pending_report"] is None and anonymous["actions"] == []
    # the reporter may replace their own report, never confirm it
    assert [x["action"] for x in a("get", url)["result_state"]["actions"]] == ["report"]


def test_my_matches_lists_only_the_callers_match_in_the_round_being_played():
    organiser, player_of = _event(rounds=2)
    a, b, pairing = _first_match(organiser, player_of)
    mine = a("get", "/api/me/matches/")
    assert [m["id"] for m in mine["results"]] == [pairing["match"]]
    assert mine["results"][0]["href"] == f"/api/matches/{pairing['match']}/"
    assert organiser("get", "/api/me/matches/")["results"] == []  # the organiser plays no match
    assert Client().get("/api/me/matches/").status_code == 401
