"""Progress of background jobs: ONE mechanism for every long task (Excel exports, big pairings).

A job has an id (also its Celery task id) and a small JSON status file under
``MEDIA_ROOT/jobs/<slug>/<job>.json``: state, ``done``/``total``, and what the
task leaves for the page (a file, round ids, coded problems). The status file
is what progress pages read, so it works the same in eager mode, with real
workers on other hosts sharing the media volume, and with or without a Celery
result backend. Files are written atomically (temporary name, then rename), so
a reader never sees half a status.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from kombu.exceptions import OperationalError

from scoring.rules.errors import Problem

from . import embedded, publishing
from .problems import JOB

logger = logging.getLogger(__name__)

QUEUED, PROGRESS, SUCCESS, FAILURE = "QUEUED", "PROGRESS", "SUCCESS", "FAILURE"
JOBS_DIR = "jobs"
KEEP_SECONDS = 24 * 60 * 60
"""Finished jobs are kept a day (starting a new job of the same tournament prunes older ones)."""

STALE_SECONDS = 600
"""A running job whose status has not moved for this long, on a worker we cannot see, is dead."""

Progress = Callable[[int, int], None]


def new_id() -> str:
    return str(uuid.uuid4())


def folder(slug: str) -> Path:
    return Path(settings.MEDIA_ROOT) / JOBS_DIR / slug


def file_path(slug: str, job: str, suffix: str) -> Path:
    """A file that belongs to the job (its status ``.json``, an export's ``.xlsx``)."""
    return folder(slug) / f"{job}{suffix}"


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_status(slug: str, job: str, state: str, **extra: Any) -> None:
    """Write the job's status; a running job also names its process, so a dead one can be told."""
    payload = {"state": state, **extra}
    if state == PROGRESS:
        payload.setdefault("host", socket.gethostname())
        payload.setdefault("pid", os.getpid())
    atomic_write(file_path(slug, job, ".json"), json.dumps(payload, ensure_ascii=False).encode())


def read_status(slug: str, job: str) -> dict[str, Any] | None:
    """The job's status, or None for an unknown job (or a foreign tournament's: the folder differs)."""
    try:
        return json.loads(file_path(slug, job, ".json").read_text())
    except (FileNotFoundError, ValueError):
        return None


def fail(slug: str, job: str, problems: list[Problem]) -> dict[str, Any]:
    """End the job with coded problems (rendered later in each reader's language)."""
    payload = {"problems": [p.to_data() for p in problems]}
    write_status(slug, job, FAILURE, **payload)
    return {"state": FAILURE, **payload}


def problems(status: dict[str, Any]) -> list[Problem]:
    """The problems a finished job left (a failed job with none says it failed)."""
    stored = [Problem.from_data(d) for d in status.get("problems") or ()]
    if status.get("state") == FAILURE and not stored:
        stored = [JOB.problem("failed")]
    return stored


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


def abandoned(slug: str, job: str, status: dict[str, Any]) -> bool:
    """A job left running by a worker that died (killed, out of memory, host lost).

    Its process is gone (same host: checked at once), or its status has not
    moved for :data:`STALE_SECONDS` (a worker on another host).
    """
    if status.get("state") != PROGRESS:
        return False
    pid = status.get("pid")
    if status.get("host") == socket.gethostname() and isinstance(pid, int):
        return _process_gone(pid)
    try:
        age = time.time() - file_path(slug, job, ".json").stat().st_mtime
    except FileNotFoundError:
        return False
    return age > STALE_SECONDS


def settle(slug: str, job: str, status: dict[str, Any]) -> dict[str, Any]:
    """The status as it really is: an abandoned job is marked failed (for good), so it can be retried."""
    if abandoned(slug, job, status):
        return fail(slug, job, [JOB.problem("worker_failed")])
    return status


def enqueue(task, args: tuple, job: str) -> None:
    """Run ``task`` as job ``job``: on a worker when there is a broker, else at once in-process.

    Eager runs (no broker: ``make run``) go to the embedded runner (:mod:`.embedded`), off
    the request, with ``apply`` so that no producer pool is opened on the placeholder broker.
    When the broker cannot be reached the task runs in this process instead (slower for
    the one request, but the export or recompute is done, not silently lost).
    """
    if task.app.conf.task_always_eager:
        embedded.submit(lambda: task.apply(args, task_id=job), task.name)
        return
    try:
        publishing.publish(task, args, task_id=job, fallback=lambda: task.apply(args, task_id=job))
    except OperationalError as exc:  # the broker is down: do the work here rather than lose it
        logger.warning("broker unavailable, running %s in the web process: %s", task.name, exc)
        if not getattr(exc, "pending", False):  # else the publishing thread runs it if the publish fails
            task.apply(args, task_id=job)


class NotQueued(Exception):
    """The broker could not take the job; the job is marked failed with this problem."""

    def __init__(self, job: str, problem: Problem):
        self.job = job
        self.problem = problem
        super().__init__(problem.message("en"))


def queue(task, args: tuple, slug: str, job: str) -> None:
    """Run ``task`` as job ``job`` on a worker, or fail the job at once: :class:`NotQueued`.

    For jobs a person waits for and can simply ask again (the Excel export): with the
    broker down or hung the publish fails within the bounded timeouts
    (``BROKER_TIMEOUT``), the job is marked failed with ``job.broker_unavailable`` so
    nobody polls a job that never starts, and the next request starts a fresh one.
    Eager mode (no broker configured) hands it to the embedded runner, as :func:`enqueue` does.
    """
    if task.app.conf.task_always_eager:
        embedded.submit(lambda: task.apply(args, task_id=job), task.name)
        return
    try:
        publishing.publish(task, args, task_id=job)
    except Exception as exc:  # noqa: BLE001 - kombu, redis and socket errors alike: the broker is unreachable
        logger.warning("broker unavailable, job %s of %s not queued: %s", job, task.name, exc)
        problem = JOB.problem("broker_unavailable")
        fail(slug, job, [problem])
        raise NotQueued(job, problem) from None


def worker_state(task, job: str) -> str | None:
    """What Celery knows of a job still QUEUED in its file (a worker may have died first)."""
    if task.app.conf.task_always_eager:
        return None
    try:
        return task.AsyncResult(job).state
    except Exception:  # no result backend, or the broker is unreachable
        return None


def reporter(slug: str, job: str) -> Progress:
    """The progress callback a task hands to the core: ``done`` of ``total`` steps."""

    def progress(done: int, total: int) -> None:
        write_status(slug, job, PROGRESS, done=done, total=total)

    return progress


def start(slug: str, job: str | None = None) -> str:
    """Register a queued job (pruning this tournament's old ones) and return its id."""
    job = job or new_id()
    prune(slug)
    write_status(slug, job, QUEUED, done=0, total=0)
    return job


def prune(slug: str, max_age: float = KEEP_SECONDS) -> int:
    """Delete this tournament's job files older than ``max_age`` seconds; returns how many."""
    directory = folder(slug)
    if not directory.is_dir():
        return 0
    cutoff = time.time() - max_age
    removed = 0
    for path in directory.iterdir():
        try:
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:  # another process pruned it first
            continue
    return removed


def later(task, *args: Any, countdown: float | None = None, long: bool = False) -> bool:
    """Queue ``task`` for a worker (True); if the broker is down, run it here rather than lose it.

    ``long``: work a person must not wait for in the request (a match analysis): with no
    broker it goes to the embedded runner (:mod:`.embedded`) instead of running eagerly here.
    """
    if long and task.app.conf.task_always_eager:
        embedded.submit(lambda: task.apply(args), task.name)
        return True
    try:
        publishing.publish(task, args, countdown=countdown, fallback=lambda: task.apply(args))
        return True
    except OperationalError as exc:
        logger.warning("broker unavailable, running %s in this process: %s", task.name, exc)
        if not getattr(exc, "pending", False):  # else the publishing thread runs it if the publish fails
            task.apply(args)
        return False
