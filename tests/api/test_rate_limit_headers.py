"""Issue 47: limits a client can see before a 429 — ``RateLimit-Policy`` and ``RateLimit`` on every answer.

The IETF httpapi draft's fields (draft-ietf-httpapi-ratelimit-headers-10): the policy
names whose budget it is (a token's, an account's, an address's) with its quota ``q``
per window ``w``; ``RateLimit`` says what is left (``r``) and when the oldest counted
request leaves the window (``t``). An entry key is a budget of its own.
"""

from __future__ import annotations

import re
import uuid

import pytest
import redis
from django.test import Client

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

FIELD = re.compile(r'^"(?P<policy>\w+)";r=(?P<r>\d+);t=(?P<t>\d+)$')


def _left(answer) -> tuple[str, int, int]:
    found = FIELD.match(answer["RateLimit"])
    assert found, answer["RateLimit"]
    return found["policy"], int(found["r"]), int(found["t"])


def test_a_tokens_answers_count_down_its_own_budget_and_the_last_is_a_429(settings):
    settings.ZARIK_API_THROTTLE_RATES = {**settings.ZARIK_API_THROTTLE_RATES, "token": "3/min"}
    _token, key = issue_token(UserFactory(), "app", TokenScope.READ)
    app = Client(HTTP_AUTHORIZATION=f"Token {key}")
    answers = [app.get("/api/tournaments/") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert {a["RateLimit-Policy"] for a in answers} == {'"token";q=3;w=60'}
    assert [_left(a)[1] for a in answers] == [2, 1, 0, 0]
    assert all(1 <= _left(a)[2] <= 60 for a in answers)
    assert int(answers[3]["Retry-After"]) >= 1


def test_anonymous_callers_see_their_addresss_budget(settings):
    answer = Client().get("/api/tournaments/")
    assert answer["RateLimit-Policy"] == f'"anon";q={settings.ZARIK_API_THROTTLE_RATES["anon"].split("/")[0]};w=60'
    assert _left(answer)[0] == "anon"


def test_two_players_entry_keys_from_one_address_have_a_budget_each(settings):
    settings.ZARIK_API_THROTTLE_RATES = {**settings.ZARIK_API_THROTTLE_RATES, "token": "2/min"}
    tournament = TournamentFactory(public=True)
    first, second = (Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(EntryFactory(tournament=tournament))}")
                     for _ in range(2))  # fmt: skip
    assert [first.get("/api/me/matches/").status_code for _ in range(3)] == [200, 200, 429]
    answer = second.get("/api/me/matches/")
    assert answer.status_code == 200 and _left(answer)[:2] == ("token", 1)


def test_on_the_shared_redis_cache_the_window_counts_down_the_same(settings):
    """Production's Redis cache counts the window in one script call (issue 50): the same
    answers, fields and ``Retry-After`` as the local memory cache's window above. (A Redis
    database of its own: the module's fixture empties the cache after the test.)"""
    prefix = f"rate-limit-{uuid.uuid4().hex}"
    settings.CACHES = {"default": {
        "BACKEND": "zarik.cache.ResilientRedisCache", "LOCATION": "redis://127.0.0.1:6379/11", "KEY_PREFIX": prefix,
    }}  # fmt: skip
    settings.ZARIK_API_THROTTLE_RATES = {**settings.ZARIK_API_THROTTLE_RATES, "token": "3/min"}
    _token, key = issue_token(UserFactory(), "app", TokenScope.READ)
    app = Client(HTTP_AUTHORIZATION=f"Token {key}")
    answers = [app.get("/api/tournaments/") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert {a["RateLimit-Policy"] for a in answers} == {'"token";q=3;w=60'}
    assert [_left(a)[1] for a in answers] == [2, 1, 0, 0]
    assert all(1 <= _left(a)[2] <= 60 for a in answers)
    assert 1 <= int(answers[3]["Retry-After"]) <= 60
    assert len(redis.Redis.from_url("redis://127.0.0.1:6379/11").lrange(f"{prefix}:1:api-throttle:token:{_token.pk}:window", 0, -1)) == 3
