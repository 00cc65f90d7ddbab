"""The broker down or hung on an export: a fast, clear 503, the job failed, a retry starts afresh.

Performed for real: Celery is pointed at a port where nothing listens (Redis stopped)
and at a silent TCP server (Redis hung), with the site's own broker timeouts
(``zarik.serving.broker_timeouts``, as the settings apply them); the export is asked
for through the API and the page.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from django.urls import reverse
from kombu import pools as kombu_pools

from tests.factories import TournamentFactory, UserFactory
from tests.zarik.test_hardening_db_hang import SilentServer
from tournaments.jobs import exports as export_jobs
from tournaments.jobs import progress as jobs
from tournaments.jobs import publishing
from zarik.celery import app
from zarik.serving import broker_timeouts

pytestmark = pytest.mark.django_db


@contextmanager
def broker_at(url: str, monkeypatch):
    """Celery publishing to ``url`` with the production timeouts (1 s here), then back to eager."""
    monkeypatch.setenv("BROKER_TIMEOUT", "1")
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", *broker_timeouts())}
    app.conf.update(task_always_eager=False, broker_url=url, **broker_timeouts())
    _fresh_pools()
    try:
        yield
    finally:
        app.conf.update(**saved)
        _fresh_pools()


def _fresh_pools() -> None:
    """Connections are pooled per app and producers per connection in kombu's registry: drop
    both, so the next publish dials the broker named now (and no later test meets a closed pool)."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    kombu_pools.reset()
    publishing.forget_failure()  # this process's memory of the last broker's failure


def _post_export(client, slug: str):
    started = time.monotonic()
    response = client.post(reverse("api-export-list", kwargs={"slug": slug}), {"lang": "en"},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    return response, time.monotonic() - started


def test_an_export_with_the_broker_stopped_fails_fast_and_a_retry_starts_afresh(client, monkeypatch):
    t = TournamentFactory(slug="broker-down")
    client.force_login(UserFactory())
    with broker_at("redis://127.0.0.1:1/0", monkeypatch):
        refused, took = _post_export(client, t.slug)
    assert refused.status_code == 503 and took < 10
    body = refused.json()
    assert body["code"] == "job.broker_unavailable" and refused["Retry-After"]
    failed_job = body["job"]
    assert jobs.read_status(t.slug, failed_job)["state"] == jobs.FAILURE  # never QUEUED for ever

    again, _took = _post_export(client, t.slug)  # the broker is back (eager here)
    assert again.status_code == 202
    assert again.json()["job"] != failed_job
    assert export_jobs.status(t, again.json()["job"])["state"] == jobs.SUCCESS


def test_an_export_with_the_broker_hung_fails_within_the_timeouts(client, monkeypatch):
    t = TournamentFactory(slug="broker-hung")
    with SilentServer() as silent, broker_at(f"redis://127.0.0.1:{silent.port}/0", monkeypatch):
        started = time.monotonic()
        page = client.post(reverse("public-export", kwargs={"slug": t.slug}), {"lang": "ru"})
        took = time.monotonic() - started
    assert page.status_code == 503 and took < 20, (page.status_code, took)
    assert silent.accepted >= 1
    assert "Очередь задач не ответила" in page.content.decode()
