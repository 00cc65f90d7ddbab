"""A database that accepts connections and never answers: 503 in seconds, not a killed worker.

A tiny TCP server on this machine accepts every connection and never says a word,
as a hung PostgreSQL does. The site's own PostgreSQL options (``postgres_timeouts``,
as the settings apply them) point at it; pages and the API then answer the same 503
as a dropped connection, within the connect timeout, and the health endpoints say
which part is down: liveness stays 200, readiness and the detailed status 503.
"""

from __future__ import annotations

import socket
import threading
import time

import dj_database_url
import pytest
from django.db import OperationalError, connection, connections
from django.db.utils import ConnectionHandler

from zarik.serving import postgres_timeouts

CONNECT_TIMEOUT = 2  # psycopg's least


class SilentServer:
    """Accepts TCP connections and holds them open without a byte: a hung database."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.accepted = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)

    def __enter__(self) -> SilentServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def hung_database(monkeypatch, django_db_blocker):
    """The default database swapped for a PostgreSQL one on a silent server, for one test."""
    pytest.importorskip("psycopg")
    monkeypatch.setenv("DB_CONNECT_TIMEOUT", str(CONNECT_TIMEOUT))
    with SilentServer() as server:
        config = dj_database_url.parse(f"postgres://zarik:secret@127.0.0.1:{server.port}/zarik")
        config["OPTIONS"] = postgres_timeouts()  # exactly what the settings add for PostgreSQL
        handler = ConnectionHandler({"default": config})
        hung = handler["default"]
        with django_db_blocker.unblock():
            original = connections["default"]
            connections["default"] = hung
            try:
                yield server
            finally:
                connections["default"] = original
                hung.close()


def _timed(client, path: str, **headers):
    started = time.monotonic()
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="en", **headers)
    return response, time.monotonic() - started


def test_a_hung_database_is_refused_within_the_connect_timeout(hung_database):
    started = time.monotonic()
    with pytest.raises(OperationalError):
        connections["default"].ensure_connection()
    assert time.monotonic() - started < CONNECT_TIMEOUT + 3
    assert hung_database.accepted >= 1  # it really reached the silent server


def test_a_page_on_a_hung_database_answers_the_503_page(hung_database, client):
    response, took = _timed(client, "/")
    assert response.status_code == 503 and response["Retry-After"]
    assert "The database did not answer" in response.content.decode()
    assert took < CONNECT_TIMEOUT * 3 + 3


def test_the_api_on_a_hung_database_answers_a_503_problem(hung_database, client):
    response, took = _timed(client, "/api/tournaments/")
    assert response.status_code == 503
    assert response.json()["code"] == "service.db_unavailable_api"
    assert took < CONNECT_TIMEOUT * 3 + 3


def test_health_says_live_but_not_ready_on_a_hung_database(hung_database, client, settings):
    live, took = _timed(client, "/healthz/live")
    assert live.status_code == 200 and took < 1
    ready, took = _timed(client, "/healthz/ready")
    assert ready.status_code == 503 and ready.json() == {"status": "down"}
    assert took < CONNECT_TIMEOUT + 3
    settings.HEALTHZ_TOKEN = "monitor"  # a monitor with the token reads the checks
    detailed, _took = _timed(client, "/healthz", HTTP_AUTHORIZATION="Bearer monitor")
    assert detailed.status_code == 503 and detailed.json()["status"] == "down"
    assert detailed.json()["checks"]["database"]["ok"] is False


@pytest.mark.django_db
def test_postgresql_connections_carry_the_statement_timeout():
    if connection.vendor != "postgresql":
        pytest.skip("statement_timeout is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] not in ("0", "")
