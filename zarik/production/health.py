"""Health for the load balancer: liveness, readiness and a detailed status, as JSON.

Three questions, three answers (issue 29: a Redis outage answered 503 on the one
``/healthz``, and a balancer would have taken every web process out although pages
and result entry kept working):

- ``/healthz/live``: the process answers. No dependency is touched; 200 always. An
  orchestrator restarts a process that fails it.
- ``/healthz/ready``: the process can serve, i.e. its database answers (within the
  connect and statement timeouts). 503 otherwise: take it out of rotation.
- ``/healthz``: every dependency with its time. 200 with ``"status": "ok"`` when all
  answer, 200 with ``"degraded"`` when only the cache or the broker does not (pages
  and results still work: the cache is a miss, exports wait), 503 ``"fail"`` only
  when the database does not.

Each probe is short and bounded by a timeout; nothing is cached.
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
#: Without these the site cannot serve; the others only degrade it.
REQUIRED = frozenset({"database"})


def _probe(name: str) -> dict:
    started = time.perf_counter()
    try:
        result = {"ok": True, **CHECKS[name]()}
    except Exception as exc:  # noqa: BLE001 - any failure is the answer, not a 500
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


@never_cache
def healthz(request):
    """``{"status": "ok"|"degraded"|"fail", "checks": {name: {"ok", "ms", …detail or "error"}}}``."""
    results = {name: _probe(name) for name in CHECKS}
    if not all(results[name]["ok"] for name in REQUIRED):
        status, code = "fail", 503
    elif all(r["ok"] for r in results.values()):
        status, code = "ok", 200
    else:
        status, code = "degraded", 200
    return JsonResponse({"status": status, "checks": results}, status=code)


@never_cache
def live(request):
    """The process answers: nothing else is asked."""
    return JsonResponse({"status": "ok"})


@never_cache
def ready(request):
    """The process can serve: its database answers."""
    results = {name: _probe(name) for name in REQUIRED}
    healthy = all(r["ok"] for r in results.values())
    return JsonResponse({"status": "ok" if healthy else "fail", "checks": results},
                        status=200 if healthy else 503)
