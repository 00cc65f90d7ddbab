"""Issue 47's closing figures: how many API calls an 8-player, 3-round Swiss costs an integrator.

Two ways to run it, each as an integrator would, with tokens only and every call counted:
organiser-driven (the desk enters every result) and player-driven (the players report and
confirm). ``*_before`` are the ways the API allowed before issue 47 (one ``report/`` per
table; a player needs an account and its password); ``*_after`` use the bulk results and
the private links. Run with ``-s`` to print the counts::

    .venv/bin/python -m pytest -n 0 -q -s tests/api/test_call_counts.py
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.access import private_links
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

PLAYERS, ROUNDS = 8, 3


class Counted:
    """One caller's HTTP client; every call, whoever makes it, adds to :attr:`calls`."""

    calls = 0

    def __init__(self, key: str | None = None):
        self.http = Client(HTTP_AUTHORIZATION=f"Token {key}") if key else Client()

    def __call__(self, method: str, url: str, data=None):
        Counted.calls += 1
        answer = getattr(self.http, method)(url, data, content_type="application/json")
        assert answer.status_code in (200, 201), (url, answer.status_code, answer.content[:400])
        return answer.json() if answer.content else None


def _token(username: str, password: str = "zarik-test") -> str:
    return Counted()("post", "/api/tokens/", {"name": "app", "scope": "write", "username": username,
                                              "password": password})["key"]  # fmt: skip


def _setup(player_accounts: bool) -> tuple[Counted, list[dict]]:
    Counted.calls = 0
    club = ClubFactory()
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    players = [PlayerFactory(user=UserFactory() if player_accounts else None) for _ in range(PLAYERS)]
    desk = Counted(_token(director.username))
    desk("post", "/api/tournaments/", {
        "club": club.slug, "name": "Counted", "slug": "counted", "starts_on": "2026-05-01", "system": "swiss",
        "rounds_planned": ROUNDS, "match_length": 5, "public": True, "seeding": "registration",
    })  # fmt: skip
    entries = desk("post", "/api/tournaments/counted/entries/", [{"player": p.pk} for p in players])
    return desk, entries


def _round(desk: Counted) -> dict:
    [rnd] = desk("post", "/api/tournaments/counted/generate/", {})["rounds"]
    desk("post", f"/api/rounds/{rnd['id']}/publish/")
    return rnd


def _finish(desk: Counted, label: str) -> int:
    standings = desk("get", "/api/tournaments/counted/standings/")
    assert standings["rounds"] == list(range(1, ROUNDS + 1))
    print(f"\n{label}: {Counted.calls} calls")
    return Counted.calls


def _score(pairing: dict) -> list[int]:
    return [5, 2] if pairing["table"] % 2 else [3, 5]


def test_organiser_driven_before():
    desk, _ = _setup(player_accounts=False)
    for _ in range(ROUNDS):
        for pairing in _round(desk)["pairings"]:
            desk("post", f"/api/matches/{pairing['match']}/report/",
                 {"final": _score(pairing), "confirm": True, "version": pairing["version"]})  # fmt: skip
    assert _finish(desk, "organiser-driven, one report per table") == 3 + ROUNDS * (2 + PLAYERS // 2) + 1


def test_organiser_driven_after():
    desk, _ = _setup(player_accounts=False)
    for _ in range(ROUNDS):
        rnd = _round(desk)
        desk("post", f"/api/rounds/{rnd['id']}/results/", {"results": [
            {"match": p["match"], "final": _score(p), "version": p["version"]} for p in rnd["pairings"]
        ]})  # fmt: skip
    assert _finish(desk, "organiser-driven, a round per call") == 3 + ROUNDS * 3 + 1


def _play(desk: Counted, app_of: dict[int, Counted]) -> None:
    for _ in range(ROUNDS):
        for pairing in _round(desk)["pairings"]:
            a, b = app_of[pairing["player_a"]["entry"]], app_of[pairing["player_b"]["entry"]]
            [mine] = a("get", "/api/me/matches/")["results"]
            a("post", f"/api/matches/{mine['id']}/report/", {"final": _score(pairing), "version": mine["version"]})
            [theirs] = b("get", "/api/me/matches/")["results"]
            [confirm] = [x for x in theirs["result_state"]["actions"] if x["action"] == "confirm"]
            b("post", confirm["href"], confirm["body"])


def test_player_driven_before():
    """Every player needs an account with a password to get a token."""
    desk, entries = _setup(player_accounts=True)
    app_of = {e["id"]: Counted(_token(Entry.objects.get(pk=e["id"]).player.user.username)) for e in entries}
    _play(desk, app_of)
    assert _finish(desk, "player-driven, players with accounts") == 3 + PLAYERS + ROUNDS * (2 + 4 * PLAYERS // 2) + 1


def test_player_driven_after():
    """No player has an account: each app exchanges the private link from the player's card."""
    desk, entries = _setup(player_accounts=False)
    app_of = {}
    for e in entries:
        link = private_links.url_for(Entry.objects.get(pk=e["id"]))
        key = Counted()("post", "/api/entry-tokens/", {"link": link})["key"]
        app_of[e["id"]] = Counted(key)
    _play(desk, app_of)
    assert _finish(desk, "player-driven, private links only") == 3 + PLAYERS + ROUNDS * (2 + 4 * PLAYERS // 2) + 1
