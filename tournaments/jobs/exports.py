"""The Excel export as a job: start (or reuse while nothing changed), progress, the finished file.

The public export pages and the API's ``exports`` endpoints both call these, so
a job is reused the same way (keyed by the tournament's cache version and the
language) and a worker that died is reported the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.cache import cache

from tournaments import cache as page_cache
from tournaments.models import Tournament
from zarik.i18n import current_language

from . import export_tasks
from . import progress as jobs
from .problems import JOB


def _reuse_key(tournament: Tournament, lang: str) -> str:
    return page_cache.fragment_key(tournament.pk, "export-job", {"lang": lang})


def start(tournament: Tournament, lang: str) -> str:
    """The job building the workbook in ``lang``: a running or finished one if nothing changed since.

    Raises :class:`tournaments.jobs.progress.NotQueued` when the broker cannot take it.
    """
    reuse_key = _reuse_key(tournament, lang)
    job = cache.get(reuse_key)
    status = jobs.read_status(tournament.slug, job) if job else None
    if status is not None:
        status = jobs.settle(tournament.slug, job, status)  # a killed worker's job is retried
    if status is None or status.get("state") == jobs.FAILURE:
        job = jobs.start(tournament.slug)
        cache.set(reuse_key, job, page_cache.FRAGMENT_TIMEOUT)
        # Broker down: the job fails at once (jobs.NotQueued) and the next request starts afresh.
        jobs.queue(export_tasks.export_standings_task, (tournament.pk, lang, job), tournament.slug, job)
    return job


def status(tournament: Tournament, job: str) -> dict[str, Any] | None:
    """The job's progress: state, done/total, percent, an error in the reader's language (None: no such job)."""
    raw = jobs.read_status(tournament.slug, job)
    if raw is None:
        return None
    raw = jobs.settle(tournament.slug, job, raw)
    if raw.get("state") == jobs.QUEUED:
        if jobs.worker_state(export_tasks.export_standings_task, job) == jobs.FAILURE:
            raw = {"state": jobs.FAILURE, "problems": [JOB.problem("worker_failed").to_data()]}
    done, total = int(raw.get("done") or 0), int(raw.get("total") or 0)
    lang = current_language()
    success = raw["state"] == jobs.SUCCESS
    problems = jobs.problems(raw)
    return {
        "state": raw["state"],
        "done": done,
        "total": total,
        "percent": 100 if success else (int(100 * done / total) if total else 0),
        "download": None,
        "error": "; ".join(p.message(lang) for p in problems) or None,
    }


def workbook(tournament: Tournament, job: str) -> Path | None:
    """The finished workbook's file, or None while it is not ready (or is gone)."""
    raw = jobs.read_status(tournament.slug, job)
    path = export_tasks.workbook_path(tournament.slug, job)
    if not raw or raw.get("state") != jobs.SUCCESS or not path.is_file():
        return None
    return path


def filename(tournament: Tournament, job: str) -> str:
    raw = jobs.read_status(tournament.slug, job) or {}
    return f"{tournament.slug}-{raw.get('language') or 'ru'}.xlsx"
