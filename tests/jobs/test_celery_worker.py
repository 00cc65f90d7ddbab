"""Smoke test: a real Celery worker on a real broker runs a task and we read its result back."""

import os

import pytest

pytestmark = pytest.mark.celery_worker


def test_real_worker_runs_task_and_returns_result(celery_worker_app):
    from zarik.celery import ping

    result = ping.delay(21)
    value = result.get(timeout=30)
    assert value["pong"] == 42
    # Ran in the worker process, not eagerly in ours.
    assert value["pid"] != os.getpid()


@pytest.mark.skipif(bool(os.environ.get("CELERY_BROKER_URL")), reason="a broker is configured")
def test_tasks_run_eagerly_without_a_broker():
    """The embedded default: no broker configured, the task runs in-process."""
    from zarik.celery import app, ping

    assert app.conf.task_always_eager is True
    assert ping.delay(5).get()["pid"] == os.getpid()
