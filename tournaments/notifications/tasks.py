"""Webhooks and emails in the background: an event's deliveries planned, posted and retried.

The handlers :func:`on_event_webhooks` and :func:`on_event_emails` are subscribed to
:mod:`tournaments.events` by the app's ``ready()``; the request only queues a task.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import DatabaseError

from tournaments.events import Event
from tournaments.jobs import publishing
from tournaments.jobs.progress import later
from tournaments.models import WebhookDelivery

from . import event_emails as notifications
from . import webhook_runner, webhooks

logger = logging.getLogger(__name__)


@shared_task(bind=True, name="tournaments.deliver_webhook", max_retries=None, ignore_result=True)
def deliver_webhook(self, delivery_id: int, database_tries: int = 0) -> str:
    """One attempt of a logged delivery; a failed one is retried after the backoff.

    Each attempt updates the :class:`WebhookDelivery` row (the organiser's log).
    Run eagerly (``WEBHOOK_RUNNER = "inline"``, tests only) the attempts follow at once.
    An attempt the database refused is none: the task runs again after
    :func:`webhook_runner.after_database_error`'s wait (``database_tries`` counts them),
    not failed for good with the delivery ``pending`` until someone presses "redeliver".
    One attempt per subscription at a time (:func:`webhook_runner.enter_lane`): while another
    worker slot attempts this receiver, the task comes back later instead of waiting in a slot.
    """
    subscription_id, lane = None, None
    try:
        if not self.request.is_eager:
            subscription_id = (
                WebhookDelivery.objects.filter(pk=delivery_id).values_list("subscription_id", flat=True).first()
            )
            lane = webhook_runner.enter_lane(subscription_id) if subscription_id is not None else None
            if subscription_id is not None and lane is None:  # the receiver's lane is busy: come back later
                raise self.retry(countdown=webhook_runner.LANE_RETRY_SECONDS)
        while (wait := webhooks.attempt_once(delivery_id)) is not None:
            if not self.request.is_eager:
                raise self.retry(countdown=wait)
    except DatabaseError as error:
        wait = webhook_runner.after_database_error(delivery_id, database_tries)
        if wait is None or self.request.is_eager:
            raise
        raise self.retry(
            args=(delivery_id,), kwargs={"database_tries": database_tries + 1}, countdown=wait, exc=error
        ) from error
    finally:
        if lane is not None:
            webhook_runner.leave_lane(subscription_id, lane)
    return "done"


def queue_delivery(delivery: WebhookDelivery) -> None:
    """Hand the delivery to the runner (:mod:`webhook_runner`): never attempted in this request."""
    if webhook_runner.runner() == "thread":
        webhook_runner.submit(delivery.pk, delivery.subscription_id)
        return
    try:
        publishing.publish(deliver_webhook, (delivery.pk,))
    except publishing.BrokerUnavailable as exc:  # logged as pending: "redeliver" sends it later
        logger.warning("webhook delivery %s left pending: %s", delivery.pk, exc)


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
    """Send the emails of one event (``notifications.NOTIFICATIONS``); returns how many went.

    A round-wide event of a big field is not sent here: one task per batch of tables is
    queued instead (:func:`notifications.batches`), and each sends its own (returns 0)."""
    event = Event(name, tournament_id, data)
    ranges = notifications.batches(event)
    for first, last in ranges:
        later(send_notifications, name, tournament_id, {**data, "tables": [first, last]})
    if ranges:
        return 0
    return notifications.send_for(event)


def on_event_emails(event: Event) -> None:
    """The events handler: send the event's emails in the background."""
    if notifications.worth_a_task(event):
        later(send_notifications, event.name, event.tournament_id, dict(event.data))
