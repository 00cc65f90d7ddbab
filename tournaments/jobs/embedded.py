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

- ``thread`` (the default): :data:`THREADS` daemon threads per web process taking jobs
  from one queue in order, like the webhook runner's lanes
  (:mod:`tournaments.notifications.webhook_runner`); a job's database connection is its
  own and closed after it;
- ``inline``: in the caller, as Celery's eager mode does — for tests that assert on a job's
  result right after the request.

With a broker none of this is used: the tasks go to the Celery workers.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)

#: Threads per web process: two jobs at once (an analysis takes one core; the default
#: machine of a club has two), the rest wait their turn in the queue.
THREADS = 2

_jobs: queue.Queue[tuple[Callable[[], Any], str, Future]] = queue.Queue()
_threads: list[threading.Thread] = []
_threads_lock = threading.Lock()


def mode() -> str:
    return getattr(settings, "EMBEDDED_JOBS", "thread")


def _work() -> None:
    while True:
        job, name, future = _jobs.get()
        try:
            if future.set_running_or_notify_cancel():
                close_old_connections()
                future.set_result(job())
        except Exception as exc:  # a job ends in its own stored state; a crash must not end the thread
            logger.exception("embedded job %s failed", name)
            future.set_exception(exc)
        finally:
            connection.close()  # this thread's own connection: none is kept between jobs
            _jobs.task_done()


def _start_threads() -> None:
    """Daemon threads: stopping ``make run`` (or runserver's reload) never waits for a job. A job
    cut off that way is found by its own store (an analysis left running is failed by
    :func:`scoring.analysis.services.reap_stale`, an export of a gone process by
    :func:`tournaments.jobs.progress.abandoned`) and can be asked again."""
    with _threads_lock:
        _threads[:] = [t for t in _threads if t.is_alive()]
        for i in range(len(_threads), int(getattr(settings, "EMBEDDED_JOB_THREADS", THREADS))):
            thread = threading.Thread(target=_work, name=f"zarik-jobs-{i}", daemon=True)
            thread.start()
            _threads.append(thread)


def submit(job: Callable[[], Any], name: str) -> Future | None:
    """Run ``job`` off the request (``thread``) or here (``inline``); returns its future when queued."""
    if mode() == "inline":
        job()
        return None
    future: Future = Future()
    _start_threads()
    _jobs.put((job, name, future))
    return future


def drain() -> None:
    """Wait for every job submitted so far (tests)."""
    _jobs.join()
