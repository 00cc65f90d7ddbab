"""Health for the load balancer: liveness, readiness and a detailed status, as JSON.

Three questions, three answers (issue 29: a Redis outage answered 503 on the one
``/healthz``, and a balancer would have taken every web process out although pages
and result entry kept working):

- ``/healthz/live``: the process answers. No dependency is touched; 200 always. An
  orchestrator restarts a process that fails it.
- ``/healthz/ready``: the process can serve, i.e. its database answers. 503 otherwise:
  take it out of rotation.
- ``/healthz``: every dependency. 200 ``"up"`` when all answer, 200 ``"degraded"`` when
  only the cache or the broker does not (pages and results still work: the cache is a
  miss, exports wait), 503 ``"down"`` only when the database does not.

Every probe has a hard deadline (``HEALTHZ_DEADLINE``, 2 s) that holds whatever the peer
does (issue 45: a database that froze on an open connection left ``/healthz/ready``
without an answer for 31 s, a frozen Redis gave gunicorn's bare 500 after 30 s). Each
probe runs in a thread of its own on a fresh connection, and the answer is given at the
deadline with what came back; a probe still stuck from an earlier call is not started
again (its dependency is "down" until it returns), so a frozen peer never piles up threads.

An anonymous caller — a balancer, or anyone — hears only the status. The checks, with
their times and errors, go to staff and to a monitor that sends ``Authorization: Bearer
<HEALTHZ_TOKEN>``: the errors name hosts and ports (issue 45).
"""

from __future__ import annotations

import hmac
import threading
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.utils import load_backend
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection

UP, DEGRADED, DOWN = "up", "degraded", "down"


def deadline() -> float:
    """Seconds a probe may take, well inside a balancer's own timeout (often 5 s)."""
    return float(getattr(settings, "HEALTHZ_DEADLINE", 2.0))


def _database(settings_dict: dict) -> dict:
    """A new connection with the serving one's settings (a stuck persistent connection is not
    asked: it belongs to a request), one ``SELECT 1``, closed."""
    wrapper = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(dict(settings_dict), "healthz")
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"engine": wrapper.vendor}
    finally:
        wrapper.close()


def _cache(_settings_dict: dict) -> dict:
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, 10)
    if cache.get(key) != value:
        raise RuntimeError("the cache did not return the value just written")
    cache.delete(key)
    return {"backend": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]}


def _broker(_settings_dict: dict) -> dict:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"mode": "eager"}  # the embedded default: tasks run in the web process
    limit = deadline()
    options = {"socket_connect_timeout": limit, "socket_timeout": limit, "max_retries": 0}
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=limit, transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=limit)
        return {"transport": conn.transport_cls}


CHECKS: dict[str, Callable[[dict], dict]] = {"database": _database, "cache": _cache, "broker": _broker}
#: Without these the site cannot serve; the others only degrade it.
REQUIRED = frozenset({"database"})

_running: dict[str, threading.Thread] = {}
_running_lock = threading.Lock()


def _probe_all(names) -> dict[str, dict]:
    """Run the named checks at once, each in its own thread; whatever has not answered by the
    deadline is down ("no answer within N s")."""
    limit = deadline()
    results: dict[str, dict] = {}
    threads: dict[str, threading.Thread] = {}
    settings_dict = connection.settings_dict
    for name in names:
        with _running_lock:
            previous = _running.get(name)
            if previous is not None and previous.is_alive():
                results[name] = {"ok": False, "error": "the previous probe is still waiting for an answer", "ms": 0}
                continue
            thread = threading.Thread(target=_run, args=(name, settings_dict, results), daemon=True,
                                      name=f"healthz-{name}")
            _running[name] = threads[name] = thread
        thread.start()
    stop = time.monotonic() + limit
    for name, thread in threads.items():
        thread.join(max(stop - time.monotonic(), 0))
        if name not in results:
            results[name] = {"ok": False, "error": f"no answer within {limit:g} s", "ms": round(limit * 1000)}
    return {name: results[name] for name in names}


def _run(name: str, settings_dict: dict, results: dict[str, dict]) -> None:
    started = time.perf_counter()
    try:
        result = {"ok": True, **CHECKS[name](settings_dict)}
    except Exception as exc:  # noqa: BLE001 - any failure is the answer, not a 500
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    results.setdefault(name, result)  # too late is too late: the deadline's answer stands


def _detailed(request) -> bool:
    """Staff, or a monitor with the token, may read the checks; nobody else."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    token = getattr(settings, "HEALTHZ_TOKEN", "")
    sent = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


def _answer(request, status: str, results: dict[str, dict]) -> JsonResponse:
    body: dict = {"status": status}
    if _detailed(request):
        body["checks"] = results
    return JsonResponse(body, status=503 if status == DOWN else 200)


@never_cache
def healthz(request):
    """``{"status": "up"|"degraded"|"down"}``, and for staff or the token ``"checks"``:
    ``{name: {"ok", "ms", …detail or "error"}}``."""
    results = _probe_all(CHECKS)
    if not all(results[name]["ok"] for name in REQUIRED):
        status = DOWN
    elif all(r["ok"] for r in results.values()):
        status = UP
    else:
        status = DEGRADED
    return _answer(request, status, results)


@never_cache
def live(request):
    """The process answers: nothing else is asked."""
    return JsonResponse({"status": UP})


@never_cache
def ready(request):
    """The process can serve: its database answers (within the deadline)."""
    results = _probe_all(sorted(REQUIRED))
    return _answer(request, UP if all(r["ok"] for r in results.values()) else DOWN, results)
