"""A receiver's circuit: after failed attempts in a row, its deliveries wait instead of being tried.

Issue 45: a receiver that accepts connections and never answers cost every delivery
to it a full ``WEBHOOK_TIMEOUT``, and each retry another. After
``WEBHOOK_CIRCUIT_FAILURES`` failed attempts in a row (5) the circuit opens for
``WEBHOOK_CIRCUIT_SECONDS`` (300): no attempt is made to that receiver, its deliveries
wait (attempts not counted, nothing lost), and the webhooks page says so with the
time it closes. The first attempt after that is a probe: a 2xx closes the circuit,
a failure opens it again at once. Counted on the subscription's row, so every web
process and Celery worker sees the same state.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from tournaments.models import WebhookSubscription


def threshold() -> int:
    """Failed attempts in a row that open the circuit (0: never opens)."""
    return int(getattr(settings, "WEBHOOK_CIRCUIT_FAILURES", 5))


def open_seconds() -> float:
    return float(getattr(settings, "WEBHOOK_CIRCUIT_SECONDS", 300))


def wait_for(subscription: WebhookSubscription, now: datetime | None = None) -> float | None:
    """Seconds until the subscription's circuit closes, or None when an attempt may be made."""
    until = subscription.circuit_open_until
    now = now or timezone.now()
    if until is None or until <= now:
        return None
    return (until - now).total_seconds()


def record(subscription_id: int, ok: bool) -> None:
    """Count one attempt's outcome; open the circuit at the threshold (row updates only: a
    subscription deleted meanwhile is simply not there to update)."""
    rows = WebhookSubscription.objects.filter(pk=subscription_id)
    if ok:
        rows.exclude(failures_in_row=0, circuit_open_until=None).update(failures_in_row=0, circuit_open_until=None)
        return
    rows.update(failures_in_row=F("failures_in_row") + 1)
    limit = threshold()
    if limit > 0:
        rows.filter(failures_in_row__gte=limit).update(
            circuit_open_until=timezone.now() + timedelta(seconds=open_seconds()))


def close(subscription: WebhookSubscription) -> None:
    """The organiser's "try now" (resume, test event, redeliver): the next attempt is made."""
    WebhookSubscription.objects.filter(pk=subscription.pk).update(failures_in_row=0, circuit_open_until=None)
    subscription.failures_in_row, subscription.circuit_open_until = 0, None
