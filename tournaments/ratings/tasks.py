"""Ratings in the background: a confirmed result rated after its commit, a pool recomputed.

Task names (``tournaments.rate_match`` …) are fixed, so a worker of the next release
still runs what the previous one queued. The work itself is :mod:`tournaments.ratings.service`'s.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task
from django.db import transaction

from clubs.ratings.pools import pool_of
from tournaments.cache import complete_at_version
from tournaments.jobs import progress as jobs
from tournaments.jobs.problems import JOB
from tournaments.jobs.progress import later
from tournaments.models import Match, ResultStatus, Tournament

from . import service as ratings_service


def ratings_job_folder(pool: str) -> str:
    """The jobs folder of a pool's recomputes (a dot never occurs in a tournament's slug)."""
    return f"ratings.{pool}"


@shared_task(bind=True, name="tournaments.recompute_ratings")
def recompute_ratings(
    self, pool: str, from_sequence: int = 1, job: str | None = None, closure: bool = False
) -> dict[str, Any]:
    """Replay the pool's confirmed results from ``from_sequence`` on (``ratings_service.recompute``;
    ``closure``: only what depends on that match's changed result)."""
    folder = ratings_job_folder(pool)
    job = job or self.request.id or jobs.new_id()
    try:
        count = ratings_service.recompute(pool, from_sequence, progress=jobs.reporter(folder, job), closure=closure)
    except Exception:
        jobs.fail(folder, job, [JOB.problem("failed")])
        raise
    outcome = {"state": jobs.SUCCESS, "pool": pool, "from": from_sequence, "matches": count}
    jobs.write_status(folder, job, **outcome)
    return outcome


def rerate_after_toggle(tournament) -> None:
    """The event became rated or unrated: rebuild its pool from the start once this commits.

    A full rebuild is the one recompute that picks up (or drops) a whole event's
    results at their places in the order.
    """
    try:
        pool = pool_of(tournament.variant)
    except KeyError:
        return
    if Match.objects.filter(round__tournament=tournament, result_status=ResultStatus.CONFIRMED).exists():
        schedule_recompute(pool, 1)


@shared_task(name="tournaments.rate_match", ignore_result=True)
def rate_match(match_id: int) -> str:
    """Rate one confirmed result (both players), or recompute its pool after a correction.

    Locks the match, so a correction committing meanwhile is seen whole; a match
    that is no longer confirmed (voided, disputed) is left to :func:`ratings_service.unrate`.
    """
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round")  # the entries and players: complete_at_version
            .filter(pk=match_id)
            .order_by()  # one row: not Match's ordering, which joins the round's tournament and section
            .first()
        )
        if match is None or not match.result_stands:
            return "skipped"
        complete_at_version(match)
        recompute = ratings_service.rate_confirmed(match)
    if recompute is not None:
        schedule_recompute(*recompute, closure=True)  # this match's result changed, nothing else
    return "rated"


def schedule_rating(match_id: int) -> None:
    """Re-rate a match confirmed before (a correction, a ruling) once the transaction commits."""

    transaction.on_commit(lambda: later(rate_match, match_id))


@shared_task(name="tournaments.rate_new_results", ignore_result=True)
def rate_new_results(pool: str) -> int:
    """Rate every first confirmation of the pool not rated yet, in one go; returns how many."""
    return ratings_service.rate_new(pool)


#: A first confirmation's rating waits this long, so one task rates all confirmed meanwhile.
RATING_BATCH_SECONDS = 2.0
_rating_queued_at: dict[str, float] = {}  # pool → when this process last queued its batch


def schedule_new_rating(tournament: Tournament) -> None:
    """A first confirmation: have its pool's new results rated shortly after the commit.

    At 200 confirmations in a second (issue 17's burst) one task per result cost more
    CPU than the confirmations themselves. A web process queues the pool's batch at
    most once per half :data:`RATING_BATCH_SECONDS`, to run a full batch later: a
    confirmation that finds a batch queued less than half the delay ago is covered by
    it, since that batch reads the results after this commit. A lost batch is made up
    by the next one (it rates everything not rated yet) or ``manage.py recompute_ratings``.
    """
    pool = ratings_service.pool_for(tournament)
    if pool is not None:
        transaction.on_commit(lambda: _queue_new_ratings(pool))


def _queue_new_ratings(pool: str) -> None:
    if rate_new_results.app.conf.task_always_eager:
        rate_new_results.apply((pool,))  # no worker: rated in the request, as every eager task
        return
    now = time.monotonic()
    if now - _rating_queued_at.get(pool, -RATING_BATCH_SECONDS) < RATING_BATCH_SECONDS / 2:
        return
    if later(rate_new_results, pool, countdown=RATING_BATCH_SECONDS):
        _rating_queued_at[pool] = now


def schedule_recompute(pool: str, from_sequence: int, *, closure: bool = False) -> None:
    """Recompute the pool once the current transaction commits (eagerly without a broker)."""

    def run() -> None:
        job = jobs.start(ratings_job_folder(pool))
        jobs.enqueue(recompute_ratings, (pool, from_sequence, job, closure), job)

    transaction.on_commit(run)
