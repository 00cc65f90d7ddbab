"""Web requests keep the database's 20 s statement limit; commands and worker tasks get the batch one.

A 100,000-player event's generate, export or rating recompute runs longer than 20 s on a
busy server, and the web's limit cancelled it half-way (issue 50). Management commands
(all but ``runserver``) and the Celery worker say they run batch jobs
(:func:`zarik.serving.run_as_batch`), and their connections open with
``DB_BATCH_STATEMENT_TIMEOUT_MS``; the watchdog's deadline follows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection, connections

from zarik import db_watchdog
from zarik.celery import tasks_are_batch_jobs
from zarik.serving import BATCH_PROCESS, query_deadline

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def _fresh_statement_timeout() -> str:
    """``SHOW statement_timeout`` on a connection opened now (as a new process's first one)."""
    fresh = connections.create_connection("default")
    try:
        with fresh.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            return cursor.fetchone()[0]
    finally:
        fresh.close()


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("statement_timeout is PostgreSQL's")


def test_a_web_process_keeps_the_short_limit(postgresql, monkeypatch):
    monkeypatch.delenv(BATCH_PROCESS, raising=False)
    monkeypatch.delenv("DB_STATEMENT_TIMEOUT_MS", raising=False)
    assert _fresh_statement_timeout() == "20s"
    assert query_deadline() == 22


def test_the_worker_makes_its_tasks_batch_jobs(postgresql, monkeypatch):
    """The worker's start (its handler of Celery's ``worker_init``, before the pool forks) switches
    the process."""
    monkeypatch.delenv(BATCH_PROCESS, raising=False)
    monkeypatch.delenv("DB_BATCH_STATEMENT_TIMEOUT_MS", raising=False)
    monkeypatch.delenv("DB_QUERY_DEADLINE_MS", raising=False)
    try:
        tasks_are_batch_jobs()
        assert os.environ.get(BATCH_PROCESS) == "1"
        assert _fresh_statement_timeout() == "10min"
        assert query_deadline() == 602  # the watchdog cuts only a server silent past the limit
        monkeypatch.setenv("DB_BATCH_STATEMENT_TIMEOUT_MS", "45000")
        assert _fresh_statement_timeout() == "45s"
    finally:
        os.environ.pop(BATCH_PROCESS, None)


def test_a_long_batch_statement_is_not_cut_at_the_web_limit(postgresql, monkeypatch):
    """A statement longer than the web's (short here) limit runs to its end in a batch process:
    neither the server nor the watchdog cancels it."""
    monkeypatch.setenv("DB_STATEMENT_TIMEOUT_MS", "300")
    monkeypatch.setenv(BATCH_PROCESS, "1")
    monkeypatch.setenv("DB_BATCH_STATEMENT_TIMEOUT_MS", "5000")
    fresh = connections.create_connection("default")
    try:
        with db_watchdog.watching(fresh), fresh.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(0.8)")
            assert cursor.fetchone() is not None
    finally:
        fresh.close()


def test_a_management_command_runs_with_the_batch_limit(postgresql):
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {k: v for k, v in os.environ.items() if k not in (BATCH_PROCESS, "DB_BATCH_STATEMENT_TIMEOUT_MS")}
    env["DATABASE_URL"] = url
    code = "from django.db import connection as c; cur = c.cursor(); cur.execute('SHOW statement_timeout'); print(cur.fetchone()[0])"
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "10min"
