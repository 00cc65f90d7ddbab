"""Where webhook deliveries run: never in the request of the user whose action made the event.

``WEBHOOK_RUNNER`` picks it:

- ``celery`` (the default with a broker): a ``tournaments.deliver_webhook`` task on a
  worker; a failed attempt is retried by Celery after :func:`webhooks.backoff`.
- ``thread`` (the default of the embedded setup, no broker — ``make run``): one daemon
  thread per web process takes deliveries from a queue, one attempt at a time, and a
  failed one comes back to the queue after the same backoff (a timer). A receiver that
  never answers holds that thread for ``WEBHOOK_TIMEOUT``, never a request. Deliveries
  still queued when the process stops stay ``pending`` in the log, for "redeliver". An
  attempt the database failed (the log could not be read or written: a restart, a lock)
  is no attempt: it is queued again after :data:`DATABASE_RETRIES`, then left ``pending``
  (the Celery task does the same, :func:`after_database_error`).
- ``inline``: in the calling process, attempts one after another without waiting —
  only for tests that assert on a delivery right after the action.
"""

from __future__ import annotations

import logging
import queue
import threading

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection

from . import webhooks

logger = logging.getLogger(__name__)

_queue: queue.Queue[int] = queue.Queue()
_started = threading.Lock()
_worker: threading.Thread | None = None


def runner() -> str:
    default = "thread" if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) else "celery"
    return getattr(settings, "WEBHOOK_RUNNER", None) or default


def submit(delivery_id: int) -> None:
    """Queue one delivery for the process's delivery thread (started on first use)."""
    global _worker
    with _started:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="zarik-webhooks", daemon=True)
            _worker.start()
    _queue.put(delivery_id)


def _later(delivery_id: int, seconds: float) -> None:
    timer = threading.Timer(seconds, _queue.put, args=(delivery_id,))
    timer.daemon = True
    timer.start()


#: Seconds before a delivery whose attempt met a database error is queued again, one per
#: try. Without them it stayed ``pending`` until someone pressed "redeliver" (issue 29's
#: faults); the receiver may hear it twice, which its ``Zarik-Delivery`` id tells apart.
DATABASE_RETRIES = (1.0, 2.0, 5.0, 15.0, 30.0)
_database_tries: dict[int, int] = {}


def after_database_error(delivery_id: int, tries: int) -> float | None:
    """The seconds before trying a delivery again after its ``tries``-th database error in a
    row, or None when it is left ``pending``: the one rule of both runners (this thread and
    the Celery task, :func:`.tasks.deliver_webhook`)."""
    if tries >= len(DATABASE_RETRIES):
        return None
    logger.warning("webhook delivery %s met a database error; again in %s s",
                   delivery_id, DATABASE_RETRIES[tries], exc_info=True)
    return DATABASE_RETRIES[tries]


def _work() -> None:
    while True:
        delivery_id = _queue.get()
        try:
            close_old_connections()
            wait = webhooks.attempt_once(delivery_id)
            _database_tries.pop(delivery_id, None)
            if wait is not None:
                _later(delivery_id, wait)
        except DatabaseError:
            tries = _database_tries.get(delivery_id, 0)
            wait = after_database_error(delivery_id, tries)
            if wait is not None:
                _database_tries[delivery_id] = tries + 1
                _later(delivery_id, wait)
            else:
                _database_tries.pop(delivery_id, None)
                logger.exception("webhook delivery %s left pending: the database failed %d times",
                                 delivery_id, tries + 1)
        except Exception:  # a delivery's failure must never stop the thread
            logger.exception("webhook delivery %s failed", delivery_id)
        finally:
            connection.close()  # this thread's own connection: none is kept between deliveries
