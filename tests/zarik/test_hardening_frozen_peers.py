"""Frozen peers under ``make serve``: every probe and request answers cleanly within its deadline.

Issue 45, on a real stack (:mod:`tests.zarik.frozen_stack`: ``bin/serve``'s gunicorn on the
test database through a freezable TCP proxy, and a Redis of its own for the cache and the
broker). Before: a frozen Redis (``kill -STOP``) gave ``/healthz`` and ``POST …/exports/``
gunicorn's bare 500 after 30 s; a database frozen on the workers' open connections left
``/healthz/ready`` without an answer for 31 s and a page waiting until the worker was killed; a refused broker held the first export of each
web process 19 s; anonymous ``/healthz`` named hosts and ports.

Slow (a stack per test): run in CI's PostgreSQL pass only, with the browser tests.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.factories import OfficialFactory, TournamentFactory, UserFactory
from tests.zarik.frozen_stack import FreezableProxy, OwnRedis, Stack, timed
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import OfficialRole, TokenScope

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.long]

READY_WITHIN = 3.0
MONITOR = {"Authorization": "Bearer frozen-stack-monitor"}


@pytest.fixture
def stack(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the production stack runs on PostgreSQL (DATABASE_URL=postgres://…)")
    db = connection.settings_dict
    proxy = FreezableProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    redis = OwnRedis(tmp_path)
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@127.0.0.1:{proxy.port}/{db['NAME']}"
    try:
        with Stack(tmp_path, url, redis) as served:
            served.proxy, served.redis = proxy, redis
            yield served
    finally:
        proxy.thaw()
        redis.stop()
        proxy.close()


@pytest.fixture
def organiser_token():
    t = TournamentFactory(slug="frozen")
    user = UserFactory()
    OfficialFactory(tournament=t, user=user, role=OfficialRole.ORGANISER)
    _token, key = issue_token(user, "frozen", TokenScope.WRITE)
    return {"Authorization": f"Token {key}", "Content-Type": "application/json", "Accept-Language": "en"}


def _export(stack: Stack, headers: dict):
    return timed("POST", stack.base + "/api/tournaments/frozen/exports/", json.dumps({"lang": "en"}).encode(), headers)


def _warm(stack: Stack) -> None:
    """Every worker has served a page: each holds its persistent database connection."""
    for _ in range(8):
        status, _, _ = timed("GET", stack.base + "/", limit=20)
        assert status == 200, stack.log()


def test_a_frozen_redis_answers_ready_degraded_and_a_clean_503_for_an_export(stack, organiser_token):
    _warm(stack)
    stack.redis.freeze()
    status, body, took = timed("GET", stack.base + "/healthz/ready")
    assert (status, json.loads(body)) == (200, {"status": "up"}) and took < READY_WITHIN, (status, took)
    status, body, took = timed("GET", stack.base + "/healthz")
    assert (status, json.loads(body)) == (200, {"status": "degraded"}) and took < READY_WITHIN, (status, took)
    status, body, took = timed("GET", stack.base + "/healthz", headers=MONITOR)
    assert json.loads(body)["checks"]["broker"]["ok"] is False and took < READY_WITHIN
    status, body, took = timed("GET", stack.base + "/", limit=30)
    assert status == 200 and took < 5, (status, took)  # the cache is a miss, the page is served
    status, body, took = _export(stack, organiser_token)
    assert status == 503 and json.loads(body)["code"] == "job.broker_unavailable", (status, body[:300], took)
    assert took < 10
    assert "WORKER TIMEOUT" not in stack.log()


def test_a_database_frozen_on_open_connections_is_reported_down_within_the_deadline(stack):
    _warm(stack)
    stack.proxy.freeze()
    status, body, took = timed("GET", stack.base + "/healthz/ready")
    assert (status, json.loads(body or b"{}")) == (503, {"status": "down"}) and took < READY_WITHIN, (status, took)
    status, _, took = timed("GET", stack.base + "/healthz/live")
    assert status == 200 and took < 1
    status, body, took = timed("GET", stack.base + "/healthz", headers=MONITOR)
    assert status == 503 and took < READY_WITHIN
    error = json.loads(body)["checks"]["database"]["error"]
    assert "no answer within" in error or "previous probe is still waiting" in error, error
    again, _, took = timed("GET", stack.base + "/healthz/ready")  # the stuck probe is not started twice
    assert again == 503 and took < READY_WITHIN
    # A page on a worker's frozen open connection: its health check is cut at the query deadline
    # (4 s here) and the new connection refused at the connect timeout (5 s): the 503 page, not
    # gunicorn's kill at 30 s (zarik/db_watchdog.py).
    status, body, took = timed("GET", stack.base + "/", headers={"Accept-Language": "en"})
    assert status == 503 and b"The database did not answer" in body and took < 4 + 5 + 3, (status, took)
    stack.proxy.thaw()
    status, _, _ = timed("GET", stack.base + "/")
    assert status == 200  # the cut connection was dropped, a new one serves
    assert "WORKER TIMEOUT" not in stack.log()


def test_a_refused_broker_fails_the_first_export_of_each_process_at_once(stack, organiser_token):
    stack.redis.stop()  # nothing listens on its port now
    answers = [_export(stack, organiser_token) for _ in range(4)]  # both web processes' first
    for status, body, took in answers:
        assert status == 503 and json.loads(body)["code"] == "job.broker_unavailable", (status, body[:300])
        assert took < 5, [a[2] for a in answers]
    status, body, took = timed("GET", stack.base + "/healthz")
    assert json.loads(body) == {"status": "degraded"}  # nothing about 127.0.0.1 or its port
