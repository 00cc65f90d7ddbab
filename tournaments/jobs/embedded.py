"""The embedded runner: with no broker (``make run``), long jobs run on a few threads of the
web process — never inside the request that asked for them.

Celery's eager mode runs a task where it is sent, so under ``make run`` "Analyse again" and
attaching a record held the browser for the whole GNU Backgammon run (36–39 s at 2-ply,
issue 45), and an export or a round's pairing for as long as they took. The jobs a person
waits for with a progress display — match analysis, the Excel export, pairing a round,
recomputing ratings, a bulk upload — are handed here instead: the request answers at
once, the page shows "queued" or "running" and polls (each job keeps its state in its own
store: the analysis row, the job's status file).

``EMBEDDED_JOBS`` picks how:

- ``thread`` (the default): a pool of :data:`THREADS` daemon-free worker threads per web
  process, like the webhook runner's lanes (:mod:`tournaments.notifications.webhook_runner`);
  a job's database connection is its own and closed after it;
- ``inline``: in the caller, as Celery's eager mode does — for tests that assert on a job's
  result right after the request.

With a broker none of this is used: the tasks go to the Celery workers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)

#: Threads per web process: two jobs at once (an analysis takes one core; the default
#: machine of a club has two), the rest wait their turn in the pool's queue.
THREADS = 2

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def mode() -> str:
    return getattr(settings, "EMBEDDED_JOBS", "thread")


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=getattr(settings, "EMBEDDED_JOB_THREADS", THREADS),
                                       thread_name_prefix="zarik-jobs")
        return _pool


def _run(job: Callable[[], Any], name: str) -> Any:
    close_old_connections()
    try:
        return job()
    except Exception:  # a job ends in its own stored state; a crash must not kill the thread silently
        logger.exception("embedded job %s failed", name)
        return None
    finally:
        connection.close()  # this thread's own connection: none is kept between jobs


def submit(job: Callable[[], Any], name: str) -> Future | None:
    """Run ``job`` off the request (``thread``) or here (``inline``); returns the future when queued."""
    if mode() == "inline":
        job()
        return None
    return _executor().submit(_run, job, name)


def drain(timeout: float | None = None) -> None:
    """Wait for every job submitted so far (tests, and a management command before it exits)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=False)
