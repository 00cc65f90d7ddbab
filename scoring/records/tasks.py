"""Background work of the scoring app: the bulk upload of a round's match files.

Progress goes through :mod:`tournaments.jobs.progress` (the one mechanism): the uploads wait in
the job's folder as ``<job>-<i>.upload`` and are removed once read.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.jobs import progress as jobs
from tournaments.jobs.problems import JOB
from tournaments.models import Round

from . import match_files


@shared_task(name="scoring.bulk_upload")
def bulk_upload_task(tournament_id: int, round_id: int, job: str, names: list[str]) -> dict[str, Any]:
    """Read, match and compare the uploaded files of one round (nothing is attached here)."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id, tournament_id=tournament_id).first()
    if rnd is None:
        return {"state": jobs.FAILURE, "problems": [JOB.problem("tournament_missing", tournament=tournament_id).to_data()]}
    slug = rnd.tournament.slug
    jobs.write_status(slug, job, jobs.PROGRESS, done=0, total=len(names))
    uploads = []
    for i, name in enumerate(names):
        path = jobs.file_path(slug, job, f"-{i}.upload")
        try:
            uploads.append((name, path.read_bytes()))
        except FileNotFoundError:
            continue
        path.unlink(missing_ok=True)
    try:
        counts = match_files.bulk_process(rnd, job, uploads, progress=jobs.reporter(slug, job))
    except Exception:  # noqa: BLE001 - a job ends with a status the page can show, never a stuck bar
        return jobs.fail(slug, job, [JOB.problem("failed")])
    jobs.write_status(slug, job, jobs.SUCCESS, done=len(uploads), total=len(uploads), counts=counts)
    return {"state": jobs.SUCCESS, "counts": counts}
