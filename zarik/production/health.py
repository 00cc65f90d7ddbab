"""``/healthz``: is this web process able to serve? Database, cache and broker, as JSON.

A load balancer or orchestrator polls it: 200 when every dependency answers, 503 with the
failing one named otherwise, so a process that lost its database is taken out of rotation
instead of answering 500s. Each probe is short and bounded by a timeout; nothing is cached.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection

BROKER_TIMEOUT = 2.0  # seconds; a probe must answer well inside the balancer's own timeout


def _database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"engine": connection.vendor}


def _cache() -> dict:
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, 10)
    if cache.get(key) != value:
        raise RuntimeError("the cache did not return the value just written")
    cache.delete(key)
    return {"backend": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]}


def _broker() -> dict:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"mode": "eager"}  # the embedded default: tasks run in the web process
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=BROKER_TIMEOUT) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT)
        return {"transport": conn.transport_cls}


CHECKS: dict[str, Callable[[], dict]] = {"database": _database, "cache": _cache, "broker": _broker}


@never_cache
def healthz(request):
    """``{"status": "ok"|"fail", "checks": {name: {"ok", "ms", …detail or "error"}}}``."""
    results: dict[str, dict] = {}
    for name, probe in CHECKS.items():
        started = time.perf_counter()
        try:
            result = {"ok": True, **probe()}
        except Exception as exc:  # noqa: BLE001 - any failure is the answer, not a 500
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        results[name] = result
    healthy = all(r["ok"] for r in results.values())
    return JsonResponse({"status": "ok" if healthy else "fail", "checks": results},
                        status=200 if healthy else 503)
