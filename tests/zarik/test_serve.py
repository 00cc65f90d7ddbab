"""The production stack starts from `bin/serve` (what `make serve` runs): gunicorn with two
workers and a Celery worker on PostgreSQL and Redis, static files by WhiteNoise, /healthz
green, JSON logs with request ids, and both processes gone after SIGTERM. As `make serve`
does, migrations run as the owner (``DATABASE_OWNER_URL``) and the web and the worker as an
application role that owns no table (``manage.py db_app_role``, issue 45).

Needs PostgreSQL (DATABASE_URL) and Redis on 127.0.0.1:6379; skipped otherwise, as CI's
SQLite run does. It serves the test database, which pytest-django has migrated already.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from tests.paths import ROOT


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, headers: dict | None = None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5) as r:  # noqa: S310 - our own local server
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.mark.django_db(transaction=True)  # the role is dropped for real afterwards
@pytest.mark.local_redis  # its worker's broker is Redis database 14, which the cache tests empty
def test_bin_serve_runs_gunicorn_and_a_worker_and_stops_cleanly(tmp_path):
    if connection.vendor != "postgresql" or not _redis_up():
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…) and Redis on 127.0.0.1:6379")
    db = connection.settings_dict
    port = _free_port()
    host, db_port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    role = f"zarik_app_serve_{secrets.token_hex(4)}"  # roles are the cluster's: a name of its own
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        ZARIK_ENV="production", LOCAL_HTTP="1", SECRET_KEY="s" * 60 + "-serve-test-0123456789",
        ALLOWED_HOSTS="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2", CELERY_CONCURRENCY="1",
        DATABASE_OWNER_URL=f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{db_port}/{db['NAME']}",
        DATABASE_URL=f"postgres://{role}:serve-test-app@{host}:{db_port}/{db['NAME']}",
        CACHE_URL="redis://127.0.0.1:6379/13", CELERY_BROKER_URL="redis://127.0.0.1:6379/14",
        VENV=str(Path(os.sys.executable).parent.parent), HEALTHZ_TOKEN="serve-test-monitor",
        STATIC_ROOT=str(tmp_path / "static"),  # not the checkout's: another stack may be collecting there
    )
    workers: list[str] = []
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen(["sh", "bin/serve"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline, status = time.monotonic() + 120, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, _, body = _get(f"http://127.0.0.1:{port}/healthz",
                                       {"Authorization": "Bearer serve-test-monitor"})
                break
            except OSError:
                time.sleep(1)
        assert status == 200, log.seek(0) or log.read()[-3000:]
        health = json.loads(body)
        assert health["checks"]["broker"]["transport"] == "redis"
        assert health["checks"]["cache"]["backend"] == "ResilientRedisCache"
        assert health["checks"]["database"]["engine"] == "postgresql"
        status, headers, body = _get(f"http://127.0.0.1:{port}/static/js/zarik.js")
        assert status == 200 and b"data-print" in body  # WhiteNoise serves the collected files
        status, headers, _ = _get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]
        workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(workers) == 2  # the gunicorn master and the Celery worker
        with connection.cursor() as cur:  # the web's connections are the application role's, not the owner's
            cur.execute("SELECT count(*) FROM pg_stat_activity WHERE usename = %s", [role])
            assert cur.fetchone()[0] >= 1
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        with connection.cursor() as cur:
            cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
            if cur.fetchone():
                cur.execute(f'DROP OWNED BY "{role}"')
                cur.execute(f'DROP ROLE "{role}"')
    log.seek(0)
    lines = [json.loads(line) for line in log if line.startswith('{"time"')]
    # other loggers' lines (the worker's, a cache warning) have no path: look at the request lines
    assert any(line.get("path") == "/healthz" and len(line.get("request_id", "")) == 32 for line in lines)
    for pid in workers:  # bin/serve waited for both before exiting
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)
