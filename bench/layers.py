"""Where a request's CPU goes, by layer: a CPU-time sampling profiler (issue 50).

``SIGPROF`` fires every :data:`INTERVAL` seconds of this process's CPU time (``setitimer``
with ``ITIMER_PROF``: user + system, so time blocked on the database or Redis is not
counted), and each sample's stack is put in one layer by the frames on it, read from the
outermost in: the deepest layer entered wins, except the after-write ETag and the Celery
task, which keep everything below them (a task's ratings are "worker: ratings"). Frames
of the database driver or of Django's ORM are also counted as "of which SQL".

Used by ``bench/entry_profile.py`` (in-process) and ``bench/gunicorn_layers.py`` (the web
workers of ``bench/load_results.py --layers``). Standard library only; Linux/Unix.
"""

from __future__ import annotations

import signal
import threading
from collections import Counter
from types import FrameType

#: Seconds of CPU between samples.
INTERVAL = 0.0005

#: (a path fragment of a frame's file, the function name or "" for any, the layer). The first
#: row that matches a frame names its layer; the deepest such frame on the stack wins.
LAYERS: tuple[tuple[str, str, str], ...] = (
    ("tournaments/api/http/etags.py", "current_etag", "etag after the write"),
    ("scoring/entry/api_state.py", "match_etag", "etag after the write"),
    ("tournaments/ratings/", "", "ratings"),
    ("clubs/ratings/", "", "ratings"),
    ("tournaments/events.py", "", "events, webhooks, emails"),
    ("tournaments/notifications/", "", "events, webhooks, emails"),
    ("tournaments/cache.py", "", "cache"),
    ("zarik/cache.py", "", "cache"),
    ("django/core/cache/", "", "cache"),
    ("tournaments/rounds/flow", "", "round flow"),
    ("tournaments/audit.py", "", "audit"),
    ("scoring/workflow/", "", "workflow"),
    ("tournaments/validation.py", "", "workflow"),
    ("scoring/rules/", "", "workflow"),
    ("tournaments/api/http/auth.py", "", "auth, throttle"),
    ("tournaments/api/http/tokens.py", "", "auth, throttle"),
    ("tournaments/api/http/throttling.py", "", "auth, throttle"),
    ("rest_framework/authentication.py", "", "auth, throttle"),
    ("rest_framework/throttling.py", "", "auth, throttle"),
    ("zarik/limits.py", "", "auth, throttle"),
    ("scoring/entry/", "", "view, serializers"),
    ("tournaments/api/reads.py", "", "view, serializers"),
    ("rest_framework/", "", "view, serializers"),
    ("tournaments/public/", "", "public pages"),
    ("django/template/", "", "public pages"),
)
#: Layers that keep every frame below them (the GET an ETag is made from is all ETag).
STICKY = frozenset({"etag after the write"})
SQL = ("django/db/", "psycopg", "sqlite3")
#: Where a request starts (frames above it are the bench's own client) and where a task runs.
HANDLER = ("django/core/handlers/base.py", "get_response")
TASK = ("celery/app/trace.py", "")


def _layer(frame: FrameType) -> str | None:
    path, name = frame.f_code.co_filename, frame.f_code.co_name
    for fragment, function, layer in LAYERS:
        if fragment in path and (not function or function == name):
            return layer
    return None


def classify(frame: FrameType | None) -> tuple[str, bool] | None:
    """(layer, in SQL) of a stack whose innermost frame is ``frame``; None outside a request."""
    stack = []
    while frame is not None:
        stack.append(frame)
        frame = frame.f_back
    stack.reverse()
    inside, layer, worker, sql = False, "middleware", False, False
    for f in stack:
        path, name = f.f_code.co_filename, f.f_code.co_name
        if not inside:
            inside = HANDLER[0] in path and name == HANDLER[1]
            continue
        if TASK[0] in path:
            worker, layer = True, "worker"
        if layer in STICKY:
            sql = sql or any(s in path for s in SQL)
            continue
        found = _layer(f)
        if found is not None:
            layer = found
        sql = sql or any(s in path for s in SQL)
    if not inside:
        return None
    if worker and not layer.startswith("worker"):
        layer = f"worker: {layer}"
    return layer, sql


class LayerSampler:
    """Counts samples by (label, layer, in SQL) while :meth:`start` .. :meth:`stop` (main thread)."""

    def __init__(self) -> None:
        self.samples: Counter = Counter()
        self.label = ""
        self._lock = threading.Lock()

    def _tick(self, _signum, frame) -> None:
        found = classify(frame)
        if found is not None:
            self.samples[(self.label, *found)] += 1

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._tick)
        signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def by_layer(self, label: str) -> tuple[Counter, int, int]:
        """(samples by layer, all samples, SQL samples) of one label."""
        layers: Counter = Counter()
        sql = 0
        for (lab, layer, in_sql), n in self.samples.items():
            if lab == label:
                layers[layer] += n
                sql += n if in_sql else 0
        return layers, sum(layers.values()), sql


def table(sampler: LayerSampler, label: str, cpu_ms: float) -> str:
    """One label's CPU per request (``cpu_ms``) split by layer in proportion to the samples."""
    layers, total, sql = sampler.by_layer(label)
    if not total:
        return f"  {label}: no samples"
    lines = [f"  {label}: {cpu_ms:.2f} ms CPU a request ({total} samples; of which SQL/driver {cpu_ms * sql / total:.2f} ms)"]
    for layer, n in layers.most_common():
        lines.append(f"    {layer:<32} {cpu_ms * n / total:7.2f} ms  {100 * n / total:5.1f} %")
    return "\n".join(lines)
