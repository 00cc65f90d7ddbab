"""Handing a task to the broker within a hard deadline, whatever the broker does.

The broker's own socket timeouts (``zarik.serving.broker_timeouts``) bound each read, but
a frozen Redis (``kill -STOP``: the kernel still accepts, nothing answers) costs one
timeout per read, and kombu reads and reconnects several times: 18 s, and under gunicorn
the worker was killed at 30 s with a bare 500 (issue 45). So the publish runs in a thread
of its own and the request waits at most :func:`deadline`; after a failure or a timeout
this process does not ask the broker again for :data:`DOWN_SECONDS` (later publishes fail
at once instead of each paying the deadline).

A publish given up on may still land later if the broker wakes up inside its socket
timeouts; so whoever gave up must not do the work a second time itself. :func:`publish`
takes a ``fallback`` for that: it is run by the publishing thread, only if the publish
finally failed — never both.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

#: After the broker failed or did not answer in time, this process does not ask it again for this long.
DOWN_SECONDS = 5.0
_down_until = 0.0


class BrokerUnavailable(OperationalError):
    """The broker refused, failed or did not answer within the deadline.

    ``pending``: the publish was given up on at the deadline and may still land; its
    ``fallback`` runs if it fails, so the caller must not do the work itself."""

    def __init__(self, message: str, pending: bool = False) -> None:
        super().__init__(message)
        self.pending = pending


def deadline() -> float:
    """Seconds a request waits for the broker: ``BROKER_TIMEOUT`` (one connect or read) and one more."""
    return float(getattr(settings, "CELERY_BROKER_CONNECTION_TIMEOUT", 3.0)) + 1.0


def _mark_down() -> None:
    global _down_until
    _down_until = time.monotonic() + DOWN_SECONDS


def forget_failure() -> None:
    """Ask the broker at the next publish even if it failed a moment ago (a new broker URL)."""
    global _down_until
    _down_until = 0.0


def publish(task, args: tuple, *, fallback: Callable[[], Any] | None = None, **options: Any) -> None:
    """``task.apply_async(args, **options)`` within :func:`deadline`; raises :class:`BrokerUnavailable`.

    ``fallback`` (optional) runs in the background if a publish that was given up on at the
    deadline finally fails (see the module's note), so the work happens exactly once.
    """
    global _down_until
    if task.app.conf.task_always_eager:  # the embedded default: no broker to wait for
        task.apply_async(args, **options)
        return
    if time.monotonic() < _down_until:
        raise BrokerUnavailable("the broker did not answer a moment ago; not asked again yet")
    outcome: dict[str, BaseException | None] = {}
    given_up = threading.Event()

    def send() -> None:
        try:
            task.apply_async(args, **options)
            outcome["error"] = None
        except Exception as exc:  # noqa: BLE001 - kombu, redis and socket errors alike
            outcome["error"] = exc
            _mark_down()
            if given_up.is_set() and fallback is not None:
                logger.warning("broker failed after the request gave up; running %s here", task.name)
                try:
                    fallback()
                finally:
                    connection.close()

    thread = threading.Thread(target=send, name=f"publish-{task.name}", daemon=True)
    thread.start()
    thread.join(deadline())
    if thread.is_alive():
        given_up.set()
        _mark_down()
        raise BrokerUnavailable(f"the broker did not answer within {deadline():g} s", pending=fallback is not None)
    error = outcome.get("error")
    if error is not None:
        raise BrokerUnavailable(str(error)) from error
    _down_until = 0.0
