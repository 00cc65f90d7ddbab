"""The Excel export as a Celery task, with progress through :mod:`tournaments.jobs.progress`.

Each export is a job (its id is also the Celery task id): the job's status file
says how far it is, and the workbook ``<job>.xlsx`` lies beside it (written to a
temporary name and renamed, so a half-written file is never offered). The task
also reports progress through ``update_state`` for Celery's own tools.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings

from scoring.rules.errors import Problem, RuleViolation
from tournaments.exports import write_workbook
from tournaments.models import Tournament
from tournaments.standings_service import load_event, prize_awards
from tournaments.team_match import team_matches
from zarik.collector import few_collections

from . import progress as jobs
from .problems import JOB


def workbook_path(slug: str, job: str) -> Path:
    return jobs.file_path(slug, job, ".xlsx")


def build_workbook(
    tournament: Tournament, target, language: str = "ru", progress=None
) -> list[Problem]:
    """Write the tournament's workbook to ``target`` (path or binary file).

    Returns the problems with the tournament's tie-break choice (the default
    order was used instead), for the caller to show.
    """
    # A big event's rows and cells are hundreds of thousands of objects, none of them in a cycle.
    with few_collections():
        event = load_event(tournament, with_clubs=True)
        options = replace(
            event.export_options(language, prize_awards(event).amounts),
            team_matches=tuple(team_matches(event)),
        )
        write_workbook(target, event.export_info(), event.players, event.matches, options, progress=progress)
    return event.option_problems


@shared_task(bind=True, name="tournaments.export_standings")
def export_standings_task(self, tournament_id: int, language: str, job: str) -> dict[str, Any]:
    """Build one workbook; failures end in a FAILURE status with a bilingual message, not a crash."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {"state": jobs.FAILURE, "problems": [JOB.problem("tournament_missing", tournament=tournament_id).to_data()]}
    slug = tournament.slug
    jobs.write_status(slug, job, jobs.PROGRESS, done=0, total=0)
    report = jobs.reporter(slug, job)
    eager = bool(getattr(self.request, "is_eager", False))

    def progress(done: int, total: int) -> None:
        report(done, total)
        if not eager and self.request.id:
            self.update_state(state=jobs.PROGRESS, meta={"done": done, "total": total})

    target = workbook_path(slug, job)
    tmp = target.with_name(f".tmp-{job}.xlsx")
    try:
        build_workbook(tournament, tmp, language, progress)
        os.replace(tmp, target)
    except RuleViolation as err:
        tmp.unlink(missing_ok=True)
        return jobs.fail(slug, job, err.problems)
    except Exception:
        tmp.unlink(missing_ok=True)
        jobs.fail(slug, job, [JOB.problem("failed")])
        raise
    relative = target.relative_to(Path(settings.MEDIA_ROOT)).as_posix()
    jobs.write_status(slug, job, jobs.SUCCESS, file=relative, language=language)
    return {"state": jobs.SUCCESS, "file": relative}
