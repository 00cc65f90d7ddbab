"""Issues 45 and 47: the API throttles per token, not per address.

A hall's phones share one address: one guesser typing made-up keys from it must not
lock out the organiser's real token or a player's entry key (the same lockout fixed
for private links), while the guesser is still refused past the limit.
"""

from __future__ import annotations

import secrets

import pytest

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.access import private_links
from tournaments.api.http import tokens
from tournaments.models import TokenScope

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

HALL = "203.0.113.90"


def _made_up() -> str:
    return f"zk_{secrets.token_hex(4)}_{secrets.token_urlsafe(32)}"


def _guess_until_locked(client, settings):
    settings.API_TOKEN_MISS_RATE = "30/10m"
    answers = [
        client.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {_made_up()}", REMOTE_ADDR=HALL).status_code
        for _ in range(31)
    ]
    assert answers == [401] * 30 + [429]


def test_a_real_token_behind_the_guessers_address_is_served(client, settings):
    _token, key = tokens.issue(UserFactory(), "organiser", TokenScope.WRITE)
    _guess_until_locked(client, settings)
    ok = client.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {key}", REMOTE_ADDR=HALL)
    assert ok.status_code == 200
    still_refused = client.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {_made_up()}", REMOTE_ADDR=HALL)
    assert still_refused.status_code == 429 and still_refused.json()["code"] == "api.throttled"


def test_an_entry_key_behind_the_guessers_address_is_served_and_a_forged_one_is_not(client, settings):
    entry = EntryFactory(tournament=TournamentFactory(public=True))
    key = private_links.api_key_for(entry)
    _guess_until_locked(client, settings)
    ok = client.get("/api/me/matches/", HTTP_AUTHORIZATION=f"Bearer {key}", REMOTE_ADDR=HALL)
    assert ok.status_code == 200
    forged = client.get("/api/me/matches/", HTTP_AUTHORIZATION="Bearer ze_1.0:made-up", REMOTE_ADDR=HALL)
    assert forged.status_code == 429


def test_a_key_we_issued_carries_our_tag_and_a_made_up_one_does_not():
    _token, key = tokens.issue(UserFactory(), "integration")
    assert tokens.well_formed(key) and tokens.signed(key)
    assert not tokens.signed(key[:12] + _made_up()[12:])  # another secret under the same tag
    assert sum(tokens.signed(_made_up()) for _ in range(200)) == 0
