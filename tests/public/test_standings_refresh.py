"""After a change a worker rebuilds the standings, so the first visitor does not pay (issue 32)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import forget_celery_connections
from tests.rounds.test_big_event_reads import served_swiss
from tournaments.cache import KeptInProcess
from tournaments.events import Event
from tournaments.public import refresh


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("director", "director@example.org", "x")


@pytest.mark.django_db
def test_standings_a_worker_built_cost_the_first_visitor_no_match_read(director):
    t = served_swiss(40, director, played=2)
    cache.clear()  # a new version of everything: nothing built yet
    KeptInProcess.clear_all()
    assert refresh.refresh_standings.run(t.pk) is True  # as a worker runs it
    KeptInProcess.clear_all()  # the web process is another process: none of the worker's snapshots
    client = Client()
    for language, name in (("ru", "Игроков0000 Пётр"), ("en", "Petr Igrokov0000")):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE=language)
            overview = client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE=language)
            api = client.get(f"/api/tournaments/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200 and name in page.content.decode(), language
        assert overview.status_code == 200 and name in overview.content.decode(), language
        assert api.status_code == 200 and len(api.json()["sections"][0]["rows"]) == 40
        read_matches = [q["sql"] for q in queries.captured_queries if '"tournaments_match"' in q["sql"]]
        assert read_matches == [], language
    # A page the worker did not build (a search) is still built on demand.
    assert "Игроков0007" in client.get(f"/t/{t.slug}/standings/", {"q": "Игроков0007"}).content.decode()


@pytest.mark.django_db
def test_a_private_or_deleted_event_is_not_rebuilt(director):
    t = served_swiss(4, director, played=1)
    t.public = False
    t.save(update_fields=["public"])
    assert refresh.refresh_standings.run(t.pk) is False
    assert refresh.refresh_standings.run(t.pk + 1000) is False


@pytest.fixture
def with_a_broker(settings):
    """Celery as in production: tasks are queued (in memory), not run in the request."""
    from zarik.celery import app

    old = {k: app.conf.get(k) for k in ("task_always_eager", "broker_url")}
    forget_celery_connections()
    app.conf.update(task_always_eager=False, broker_url="memory://")
    yield
    app.conf.update(old)
    forget_celery_connections()


def test_a_burst_of_results_queues_one_rebuild_a_tournament_after_the_window(with_a_broker):
    from kombu import Connection

    with Connection("memory://") as conn:
        queue = conn.SimpleQueue("celery")
        queue.clear()  # what earlier tests left in the in-memory broker
        for _ in range(20):
            refresh.on_event_refresh(Event("standings.changed", 7001, {"match": 1}))
        refresh.on_event_refresh(Event("round.published", 7002, {"round": 1, "number": 1}))
        refresh.on_event_refresh(Event("result.reported", 7003, {"match": 1}))  # no standing changed
        try:
            messages = [queue.get(timeout=1) for _ in range(queue.qsize())]
            for message in messages:
                message.ack()
            assert sorted(m.payload[0][0] for m in messages) == [7001, 7002]  # one each, none for 7003
            assert all(m.headers["task"] == "tournaments.refresh_standings" for m in messages)
            assert all(m.headers["eta"] is not None for m in messages)  # after the window: the whole burst
            # Once the rebuild has begun, the next change queues the next one.
            cache.delete(f"zarik:tournament:{7001}:standings-refresh")
            refresh.on_event_refresh(Event("standings.changed", 7001, {"match": 2}))
            assert queue.qsize() == 1
        finally:
            queue.clear()


def test_without_a_broker_the_request_rebuilds_nothing():
    refresh.on_event_refresh(Event("standings.changed", 7004, {"match": 1}))  # tasks run eagerly here
    assert cache.get(f"zarik:tournament:{7004}:standings-refresh") is None
