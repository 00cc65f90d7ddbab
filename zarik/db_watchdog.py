"""A hard deadline on every PostgreSQL call, held on this side when the server goes silent.

``statement_timeout`` is the server's: a server that froze (or a proxy or a host that
hangs with the connection open, its kernel still acknowledging) never cancels anything,
and TCP keepalives and ``tcp_user_timeout`` see a healthy peer. A page then waited on
its persistent connection until gunicorn killed the worker at 30 s with a bare 500
(issue 45). Every call is registered here while it runs; one thread per process looks
twice a second, and a call older than :func:`zarik.serving.query_deadline` has its socket
shut down, which wakes the blocked read: psycopg raises ``OperationalError``, the request
answers the 503 of :mod:`tournaments.db_unavailable` and Django drops the connection.
Registering costs a dictionary write per query; the thread starts with the first one.
The site's PostgreSQL engine (:mod:`zarik.postgresql`) watches every query and the
``SELECT 1`` of Django's connection health check, which runs before any middleware.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from zarik.serving import query_deadline

logger = logging.getLogger(__name__)

CHECK_EVERY = 0.5  # seconds between the watchdog's looks

_running: dict[int, tuple[float, int]] = {}  # call id → (monotonic deadline, socket fd)
_lock = threading.Lock()
_watchdog: threading.Thread | None = None


def _cut(fd: int) -> None:
    """Shut the connection's socket down (both ways): the blocked read returns at once."""
    try:
        dup = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        dup.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        dup.close()


def _watch() -> None:
    while True:
        time.sleep(CHECK_EVERY)
        now = time.monotonic()
        with _lock:
            late = [(key, fd) for key, (deadline, fd) in _running.items() if deadline <= now]
            for key, _fd in late:
                del _running[key]
        for _key, fd in late:
            logger.error("a database call passed its %.1f s deadline: its connection is cut", query_deadline())
            _cut(fd)


def _start() -> None:
    global _watchdog
    if _watchdog is None or not _watchdog.is_alive():
        _watchdog = threading.Thread(target=_watch, name="zarik-db-watchdog", daemon=True)
        _watchdog.start()


@contextmanager
def watching(connection) -> Iterator[None]:
    """Register the Django connection's socket with its deadline while the block runs."""
    try:
        fd = connection.connection.pgconn.socket
    except Exception:  # noqa: BLE001 - not connected, or not psycopg: nothing to watch
        yield
        return
    key = object()
    with _lock:
        _running[id(key)] = (time.monotonic() + query_deadline(), fd)
        _start()
    try:
        yield
    finally:
        with _lock:
            _running.pop(id(key), None)


def guard(execute, sql, params, many, context):
    """An ``execute_wrapper``: every query of the connection runs :func:`watching` it."""
    with watching(context["connection"]):
        return execute(sql, params, many, context)
