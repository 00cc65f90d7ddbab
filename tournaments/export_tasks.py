"""The Excel export as a Celery task, with progress the web page can poll.

Each export is a *job* (its id is also the Celery task id). The job writes two
files under ``MEDIA_ROOT/exports/<slug>/``: the workbook ``<job>.xlsx`` (written
to a temporary name and renamed, so a half-written file is never offered) and
a small status file ``<job>.json`` (state, rows done/total, error). The status
file is what the progress page reads: it works the same in eager mode, with a
real worker, and with or without a Celery result backend. The task also
reports progress through ``update_state`` for Celery's own tools.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings

from scoring.rules.errors import Problem, RuleViolation
from tournaments.exports import write_workbook

from .models import Tournament
from .standings_service import load_event

EXPORT_DIR = "exports"
KEEP_SECONDS = 24 * 60 * 60
"""Finished exports are kept a day (a new export of the same tournament prunes older ones)."""

QUEUED, PROGRESS, SUCCESS, FAILURE = "QUEUED", "PROGRESS", "SUCCESS", "FAILURE"


def export_dir(slug: str) -> Path:
    return Path(settings.MEDIA_ROOT) / EXPORT_DIR / slug


def workbook_path(slug: str, job: str) -> Path:
    return export_dir(slug) / f"{job}.xlsx"


def status_path(slug: str, job: str) -> Path:
    return export_dir(slug) / f"{job}.json"


def _atomic_write(path: Path, data: bytes) -> None:
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
    payload = {"state": state, **extra}
    _atomic_write(status_path(slug, job), json.dumps(payload, ensure_ascii=False).encode())


def read_status(slug: str, job: str) -> dict[str, Any] | None:
    try:
        return json.loads(status_path(slug, job).read_text())
    except (FileNotFoundError, ValueError):
        return None


def prune(slug: str, max_age: float = KEEP_SECONDS) -> int:
    """Delete this tournament's export files older than ``max_age`` seconds; returns how many."""
    folder = export_dir(slug)
    if not folder.is_dir():
        return 0
    cutoff = time.time() - max_age
    removed = 0
    for path in folder.iterdir():
        try:
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:  # another process pruned it first
            continue
    return removed


def build_workbook(
    tournament: Tournament, target, language: str = "ru", progress=None
) -> list[Problem]:
    """Write the tournament's workbook to ``target`` (path or binary file).

    Returns the problems with the tournament's tie-break choice (the default
    order was used instead), for the caller to show.
    """
    event = load_event(tournament, with_clubs=True)
    write_workbook(
        target,
        event.export_info(),
        event.players,
        event.matches,
        event.export_options(language),
        progress=progress,
    )
    return event.option_problems


def _not_found(tournament_id: int) -> Problem:
    return Problem(
        code="export.tournament_missing",
        en=f"Tournament #{tournament_id} no longer exists; nothing to export.",
        ru=f"Турнир №{tournament_id} больше не существует; выгружать нечего.",
    )


@shared_task(bind=True, name="tournaments.export_standings")
def export_standings_task(self, tournament_id: int, language: str, job: str) -> dict[str, Any]:
    """Build one workbook; failures end in a FAILURE status with a bilingual message, not a crash."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        problem = _not_found(tournament_id)
        return {"state": FAILURE, "error_en": problem.en, "error_ru": problem.ru}
    slug = tournament.slug
    write_status(slug, job, PROGRESS, done=0, total=0)
    eager = bool(getattr(self.request, "is_eager", False))

    def progress(done: int, total: int) -> None:
        write_status(slug, job, PROGRESS, done=done, total=total)
        if not eager and self.request.id:
            self.update_state(state=PROGRESS, meta={"done": done, "total": total})

    target = workbook_path(slug, job)
    tmp = target.with_name(f".tmp-{job}.xlsx")
    try:
        build_workbook(tournament, tmp, language, progress)
        os.replace(tmp, target)
    except RuleViolation as err:
        tmp.unlink(missing_ok=True)
        en = "; ".join(p.en for p in err.problems)
        ru = "; ".join(p.ru for p in err.problems)
        write_status(slug, job, FAILURE, error_en=en, error_ru=ru)
        return {"state": FAILURE, "error_en": en, "error_ru": ru}
    except Exception:
        tmp.unlink(missing_ok=True)
        write_status(
            slug,
            job,
            FAILURE,
            error_en="The export failed unexpectedly; the organisers have been notified.",
            error_ru="Выгрузка неожиданно прервалась; организаторы уведомлены.",
        )
        raise
    relative = target.relative_to(Path(settings.MEDIA_ROOT)).as_posix()
    write_status(slug, job, SUCCESS, file=relative, language=language)
    return {"state": SUCCESS, "file": relative}
