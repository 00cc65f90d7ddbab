"""The next round as a background job, with progress through :mod:`tournaments.jobs.progress`.

The task only calls :func:`tournaments.rounds.pairing_manager.generate_next`; the job's
status ends with round ids, or the refusal's problems as codes and details, so
the page shows them in its reader's language, as the synchronous path does.
Without a broker (eager mode) the task simply runs in the request.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model

from tournaments.jobs import progress as jobs
from tournaments.jobs.problems import JOB
from tournaments.models import Section, Tournament

from . import pairing_manager as pm


@shared_task(bind=True, name="tournaments.pair_round")
def pair_round(
    self,
    tournament_id: int,
    section_id: int | None = None,
    user_id: int | None = None,
    reason: str = "",
    absent: list[int] | None = None,
    half_bye: list[int] | None = None,
    job: str | None = None,
) -> dict[str, Any]:
    """Pair the next round; the job's status file says how far it is and how it ended."""
    tournament = Tournament.objects.get(pk=tournament_id)
    section = Section.objects.get(pk=section_id, tournament=tournament) if section_id else None
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    job = job or self.request.id or jobs.new_id()
    try:
        rounds = pm.generate_next(
            tournament,
            section,
            user=user,
            reason=reason,
            absent=absent or (),
            half_bye=half_bye or (),
            progress=jobs.reporter(tournament.slug, job),
        )
    except pm.PairingRefused as exc:
        return jobs.fail(tournament.slug, job, exc.problems)
    except Exception:
        jobs.fail(tournament.slug, job, [JOB.problem("failed")])
        raise
    outcome = {"state": jobs.SUCCESS, "rounds": [r.pk for r in rounds]}
    jobs.write_status(tournament.slug, job, **outcome)
    return outcome
