"""Background work with progress through :mod:`tournaments.jobs`: big pairings, rating recomputes.

The task only calls :func:`tournaments.pairing_manager.generate_next`; the job's
status ends with round ids, or the refusal's problems as codes and details, so
the page shows them in its reader's language, as the synchronous path does.
Without a broker (eager mode) the task simply runs in the request.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import transaction
from kombu.exceptions import OperationalError

from clubs.ratings.pools import pool_of

from . import jobs, notifications, ratings_service, webhooks
from . import pairing_manager as pm
from .cache import complete_at_version
from .events import Event
from .job_problems import JOB
from .models import DeliveryStatus, Match, ResultStatus, Section, Tournament, WebhookDelivery

logger = logging.getLogger(__name__)


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


def ratings_job_folder(pool: str) -> str:
    """The jobs folder of a pool's recomputes (a dot never occurs in a tournament's slug)."""
    return f"ratings.{pool}"


@shared_task(bind=True, name="tournaments.recompute_ratings")
def recompute_ratings(self, pool: str, from_sequence: int = 1, job: str | None = None) -> dict[str, Any]:
    """Replay the pool's confirmed results from ``from_sequence`` on (``ratings_service.recompute``)."""
    folder = ratings_job_folder(pool)
    job = job or self.request.id or jobs.new_id()
    try:
        count = ratings_service.recompute(pool, from_sequence, progress=jobs.reporter(folder, job))
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
        if match is None or match.result_status != ResultStatus.CONFIRMED:
            return "skipped"
        complete_at_version(match)
        recompute = ratings_service.rate_confirmed(match)
    if recompute is not None:
        schedule_recompute(*recompute)
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


def later(task, *args: Any, countdown: float | None = None) -> bool:
    """Queue ``task`` for a worker (True); if the broker is down, run it here rather than lose it."""
    try:
        task.apply_async(args, countdown=countdown)
        return True
    except OperationalError as exc:
        logger.warning("broker unavailable, running %s in this process: %s", task.name, exc)
        task.apply(args)
        return False


def schedule_recompute(pool: str, from_sequence: int) -> None:
    """Recompute the pool once the current transaction commits (eagerly without a broker)."""

    def run() -> None:
        job = jobs.start(ratings_job_folder(pool))
        jobs.enqueue(recompute_ratings, (pool, from_sequence, job), job)

    transaction.on_commit(run)


# --------------------------------------------------------------------------- webhooks and emails


@shared_task(bind=True, name="tournaments.deliver_webhook", max_retries=None, ignore_result=True)
def deliver_webhook(self, delivery_id: int) -> str:
    """POST one logged delivery; on a failure retry with exponential backoff up to the last attempt.

    Each attempt updates the :class:`WebhookDelivery` row (the organiser's log).
    In eager mode (no broker, no worker to come back later) the attempts follow
    one another at once.
    """
    delivery = WebhookDelivery.objects.select_related("subscription").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return "skipped"
    while not webhooks.attempt(delivery):
        if delivery.status == DeliveryStatus.FAILED:
            return DeliveryStatus.FAILED
        if not self.request.is_eager:
            raise self.retry(countdown=webhooks.backoff(delivery.attempts))
    return DeliveryStatus.DELIVERED


def queue_delivery(delivery: WebhookDelivery) -> None:
    deliver_webhook.delay(delivery.pk)


@shared_task(name="tournaments.plan_webhooks", ignore_result=True)
def plan_webhooks(name: str, tournament_id: int, data: dict[str, Any]) -> int:
    """Log a delivery for every subscription that hears the event and queue each; returns how many."""
    deliveries = webhooks.deliveries_for(Event(name, tournament_id, data))
    for delivery in deliveries:
        queue_delivery(delivery)
    return len(deliveries)


def on_event_webhooks(event: Event) -> None:
    """The events handler: find the listening subscriptions in the background (not in the request);
    no task at all when no subscription anywhere hears the event."""
    if webhooks.anyone_listens(event.name):
        later(plan_webhooks, event.name, event.tournament_id, dict(event.data))


@shared_task(name="tournaments.send_notifications", ignore_result=True)
def send_notifications(name: str, tournament_id: int, data: dict[str, Any]) -> int:
    """Send the emails of one event (``notifications.NOTIFICATIONS``); returns how many went."""
    return notifications.send_for(Event(name, tournament_id, data))


def on_event_emails(event: Event) -> None:
    """The events handler: send the event's emails in the background."""
    if notifications.worth_a_task(event):
        later(send_notifications, event.name, event.tournament_id, dict(event.data))
