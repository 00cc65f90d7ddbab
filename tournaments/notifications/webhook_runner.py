"""Where webhook deliveries run: never in the request of the user whose action made the event.

``WEBHOOK_RUNNER`` picks it:

- ``celery`` (the default with a broker): a ``tournaments.deliver_webhook`` task on a
  worker; a failed attempt is retried by Celery after :func:`webhooks.backoff`. The lanes
  are a lock per subscription on the shared cache (:func:`enter_lane`): one attempt per
  receiver at a time, so a dead receiver's queued deliveries hold one worker slot, not
  all of them — the others find its lane taken and come back after
  :data:`LANE_RETRY_SECONDS` without waiting in a slot (issue 45). The worker needs
  ``CELERY_CONCURRENCY`` of 2 or more for that (a single slot is one lane for all).
- ``thread`` (the default of the embedded setup, no broker — ``make run``): one lane per
  subscription in each web process — a queue and a daemon thread that takes its
  deliveries one attempt at a time (in order, as the receiver expects them) and ends
  when the lane is idle — and a failed one comes back to its lane after the same backoff
  (a timer). A receiver that never answers holds its own lane for ``WEBHOOK_TIMEOUT``
  per attempt, never a request and never another receiver's deliveries (issue 45: one
  lane for all made a healthy receiver's test event wait 42.7 s); after a few failures
  in a row its circuit opens (:mod:`.webhook_circuit`) and it is not tried at all. Deliveries
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
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, close_old_connections, connection

from . import webhooks

logger = logging.getLogger(__name__)

#: A lane's thread ends after this many seconds without a delivery (a new one starts on demand).
IDLE_SECONDS = 30.0


class Lane:
    """One subscription's deliveries, attempted one at a time by their own thread."""

    def __init__(self, key: int) -> None:
        self.key = key
        self.queue: queue.Queue[int] = queue.Queue()
        self.thread = threading.Thread(target=_work, args=(self,), name=f"zarik-webhooks-{key}", daemon=True)


_lanes: dict[int, Lane] = {}
_lanes_lock = threading.Lock()

#: A Celery delivery whose receiver's lane is taken comes back after this many seconds.
LANE_RETRY_SECONDS = 2.0


def _lane_key(subscription_id: int) -> str:
    return f"zarik:webhook-lane:{subscription_id}"


def enter_lane(subscription_id: int) -> str | None:
    """Take the subscription's Celery lane: a token to leave it with, or None while another
    attempt holds it. The lock expires by itself after the longest an attempt can take
    (a worker killed mid-attempt does not close the lane for good). With the cache down
    every delivery gets a lane (they are delivered as before rather than never)."""
    token = uuid.uuid4().hex
    seconds = 2 * float(getattr(settings, "WEBHOOK_TIMEOUT", 5)) + 5
    if cache.add(_lane_key(subscription_id), token, timeout=seconds):
        return token
    return None if cache.get(_lane_key(subscription_id)) is not None else token


def leave_lane(subscription_id: int, token: str) -> None:
    if cache.get(_lane_key(subscription_id)) == token:
        cache.delete(_lane_key(subscription_id))


def runner() -> str:
    default = "thread" if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) else "celery"
    return getattr(settings, "WEBHOOK_RUNNER", None) or default


def submit(delivery_id: int, subscription_id: int) -> None:
    """Queue one delivery on its subscription's lane (the lane's thread starts on first use)."""
    with _lanes_lock:
        lane = _lanes.get(subscription_id)
        if lane is None or not lane.thread.is_alive():
            lane = _lanes[subscription_id] = Lane(subscription_id)
            lane.queue.put(delivery_id)
            lane.thread.start()
            return
        lane.queue.put(delivery_id)


def _next(lane: Lane) -> int | None:
    """The lane's next delivery, or None once it stayed idle (the lane is then closed: a
    delivery submitted after that starts a new one, never lands in a queue nobody reads)."""
    while True:
        try:
            return lane.queue.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            with _lanes_lock:
                if lane.queue.empty():
                    if _lanes.get(lane.key) is lane:
                        del _lanes[lane.key]
                    return None


def _later(delivery_id: int, subscription_id: int, seconds: float) -> None:
    timer = threading.Timer(seconds, submit, args=(delivery_id, subscription_id))
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


def _work(lane: Lane) -> None:
    while (delivery_id := _next(lane)) is not None:
        try:
            close_old_connections()
            wait = webhooks.attempt_once(delivery_id)
            _database_tries.pop(delivery_id, None)
            if wait is not None:
                _later(delivery_id, lane.key, wait)
        except DatabaseError:
            tries = _database_tries.get(delivery_id, 0)
            wait = after_database_error(delivery_id, tries)
            if wait is not None:
                _database_tries[delivery_id] = tries + 1
                _later(delivery_id, lane.key, wait)
            else:
                _database_tries.pop(delivery_id, None)
                logger.exception("webhook delivery %s left pending: the database failed %d times",
                                 delivery_id, tries + 1)
        except Exception:  # a delivery's failure must never stop the thread
            logger.exception("webhook delivery %s failed", delivery_id)
        finally:
            connection.close()  # this thread's own connection: none is kept between deliveries
