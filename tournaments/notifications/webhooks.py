"""Webhooks: an integrator's URL hears of a tournament's (or its club's) events, signed and logged.

For every event (:mod:`tournaments.events`) each active subscription of the
tournament or of its club that listens to it gets one :class:`WebhookDelivery`
row — the delivery log — and a Celery task posts it (``tasks.deliver_webhook``),
retrying with exponential backoff until a 2xx answer or the last attempt.

The body is JSON ``{"id", "event", "created", "tournament": {slug, name}, "data"}``;
the headers ``Zarik-Timestamp`` (unix seconds) and ``Zarik-Signature:
sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`` let the receiver check
that the body came from us and is fresh (the manual: integrator, "Verifying a webhook").
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import random
import secrets
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.events import EVENTS, Event
from tournaments.models import DeliveryStatus, Tournament, WebhookDelivery, WebhookSubscription
from zarik.i18n import current_language

from . import event_details
from . import webhook_circuit as circuit
from . import webhook_transport as transport

USER_AGENT = "Zarik-Webhooks/1"
TEST_EVENT = "ping"
BODY_KEPT = 500  # characters of the receiver's answer kept in the log
_jitter = random.Random()  # noqa: S311 (spreading retries, not a secret)


def max_attempts() -> int:
    return int(getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 5))


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: about 10, 20, 40, 80…,
    each spread over ±50 % (jitter) so that the deliveries of one burst do not all come back
    to a recovering receiver in the same second."""
    base = float(getattr(settings, "WEBHOOK_BACKOFF_SECONDS", 10))
    return base * 2 ** max(attempts - 1, 0) * (rng or _jitter).uniform(0.5, 1.5)


def new_secret() -> str:
    return secrets.token_hex(24)


def signature(secret: str, timestamp: int | str, body: bytes | str) -> str:
    """``sha256=<hex>`` of HMAC-SHA256 over ``"<timestamp>.<body>"`` with the subscription's secret."""
    if isinstance(body, str):
        body = body.encode()
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, header: str, tolerance: int = 300) -> bool:
    """What a receiver does (and the tests): the signature matches and the timestamp is recent."""
    try:
        fresh = abs(time.time() - int(timestamp)) <= tolerance
    except ValueError:
        return False
    return fresh and hmac.compare_digest(signature(secret, timestamp, body), header)


def listens(subscription: WebhookSubscription, name: str) -> bool:
    return not subscription.events or name in subscription.events


#: The names of the events some active subscription hears ("*": one hears them all).
LISTENED_KEY = "zarik:webhooks:listened"
#: Only a bound: every change of a subscription forgets the set at once (and on commit).
LISTENED_SECONDS = 60


def anyone_listens(name: str) -> bool:
    """Whether any active subscription, of any tournament or club, hears ``name``.

    Most events have no listener; answering from the cache lets them cost no
    background task (issue 17: three tasks per result action kept a core busy).
    """
    listened = cache.get(LISTENED_KEY)
    if listened is None:
        listened = set()
        for events in WebhookSubscription.objects.filter(active=True).values_list("events", flat=True):
            listened.update(events or ["*"])
        cache.set(LISTENED_KEY, listened, LISTENED_SECONDS)
    return "*" in listened or name in listened


def forget_listeners(sender=None, **kwargs) -> None:
    """A subscription was created, changed or deleted: recompute who listens, now and on commit."""
    cache.delete(LISTENED_KEY)
    transaction.on_commit(lambda: cache.delete(LISTENED_KEY))


def subscriptions_for(tournament: Tournament):
    """Active subscriptions of the tournament itself and of its club."""
    where = Q(tournament=tournament)
    if tournament.club_id:
        where |= Q(club_id=tournament.club_id)
    return WebhookSubscription.objects.filter(where, active=True)


def payload(name: str, tournament: Tournament, data: dict[str, Any], event_id: str | None = None) -> dict:
    return {
        "id": event_id or str(uuid.uuid4()),
        "event": name,
        "created": timezone.now().isoformat(),
        "tournament": {"slug": tournament.slug, "name": tournament.name},
        "data": data,
    }


def deliveries_for(event: Event) -> list[WebhookDelivery]:
    """Log one pending delivery per subscription that hears ``event`` (same event id for all)."""
    tournament = Tournament.objects.filter(pk=event.tournament_id).first()
    if tournament is None:
        return []
    targets = [s for s in subscriptions_for(tournament) if listens(s, event.name)]
    if not targets:
        return []
    body = payload(event.name, tournament, event_details.describe(event))
    return [
        WebhookDelivery.objects.create(
            subscription=s, event=event.name, event_id=body["id"], payload=body
        )
        for s in targets
    ]


def subscribe(owner: dict, url: str, events: list[str], user) -> WebhookSubscription:
    """A new subscription of ``owner`` (``{"tournament": t}`` or ``{"club": c}``) with a fresh secret.

    The page and the API both show the secret once, on creation, and never again.
    """
    return WebhookSubscription.objects.create(
        url=url, events=list(events), secret=new_secret(), created_by=user, **owner
    )


def set_active(subscription: WebhookSubscription, active: bool) -> None:
    """Pause (no new deliveries are logged) or resume a subscription."""
    subscription.active = active
    subscription.save(update_fields=["active"])
    if active:
        circuit.close(subscription)  # resumed: try the receiver again at once


def change(subscription: WebhookSubscription, *, url: str | None = None, events: list[str] | None = None,
           active: bool | None = None, rotate_secret: bool = False) -> WebhookSubscription:
    """Change a subscription's URL, events or state; ``rotate_secret``: a new signing secret
    (the old one signs nothing from now on), shown once in the answer like on creation."""
    fields = []
    for name, value in (("url", url), ("events", events), ("active", active)):
        if value is not None:
            setattr(subscription, name, list(value) if name == "events" else value)
            fields.append(name)
    if rotate_secret:
        subscription.secret = new_secret()
        fields.append("secret")
    if fields:
        subscription.save(update_fields=fields)
    return subscription


def test_delivery(subscription: WebhookSubscription) -> WebhookDelivery:
    """A ``ping`` event for the organiser's "send a test event" button; it closes the receiver's
    circuit, so it is tried at once (:mod:`.webhook_circuit`)."""
    circuit.close(subscription)
    tournament = subscription.tournament
    if tournament is not None:
        about = {"slug": tournament.slug, "name": tournament.name}
    else:
        about = {"slug": subscription.club.slug, "name": subscription.club.name}
    body = {
        "id": str(uuid.uuid4()),
        "event": TEST_EVENT,
        "created": timezone.now().isoformat(),
        "tournament" if tournament is not None else "club": about,
        "data": {"message": "A test event from Zarik: your endpoint is reachable."},
    }
    return WebhookDelivery.objects.create(
        subscription=subscription, event=TEST_EVENT, event_id=body["id"], payload=body
    )


def redelivery(delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a logged delivery again from the start (same event id: receivers can deduplicate),
    at once: the receiver's circuit is closed."""
    circuit.close(delivery.subscription)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.PENDING, attempts=0, error="", delivered_at=None
    )
    delivery.refresh_from_db()
    return delivery


def attempt(delivery: WebhookDelivery) -> bool:
    """POST the delivery once and log the outcome; True when the receiver answered 2xx."""
    subscription = delivery.subscription
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode()
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "Zarik-Event": delivery.event,
        "Zarik-Delivery": delivery.event_id,
        "Zarik-Timestamp": str(timestamp),
        "Zarik-Signature": signature(subscription.secret, timestamp, body),
    }
    status, answer, error, refused = None, b"", "", False
    timeout = float(getattr(settings, "WEBHOOK_TIMEOUT", 5))
    try:
        status, answer = transport.post(subscription.url, body, headers, timeout, BODY_KEPT * 4)
    except transport.UnsafeAddress as exc:
        error, refused = str(exc), True  # never retried: the address will not become allowed
    except (OSError, http.client.HTTPException, ValueError) as exc:
        error = str(exc) or exc.__class__.__name__
    if status is not None and not 200 <= status < 300:
        error = f"HTTP {status}" + (" (redirects are not followed)" if 300 <= status < 400 else "")
    ok = status is not None and 200 <= status < 300
    now = timezone.now()
    delivery.attempts += 1
    delivery.last_attempt_at = now
    delivery.response_status = status
    delivery.response_body = answer.decode("utf-8", "replace")[:BODY_KEPT] if answer else ""
    delivery.error = error[:500]
    if ok:
        delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, now
    elif refused or delivery.attempts >= max_attempts():
        delivery.status = DeliveryStatus.FAILED
    else:
        delivery.status = DeliveryStatus.PENDING
    # An update of the row, not save(): a webhook removed while its delivery was on the wire
    # took the row with it (cascade), and save() would insert it again against a subscription
    # that no longer exists (issue 45: a foreign-key error, retried as a "database error").
    WebhookDelivery.objects.filter(pk=delivery.pk).update(**{name: getattr(delivery, name) for name in LOGGED})
    circuit.record(subscription.pk, ok)
    return ok


#: The delivery log's fields that one attempt writes.
LOGGED = ("attempts", "last_attempt_at", "response_status", "response_body", "error", "status", "delivered_at")


def attempt_once(delivery_id: int) -> float | None:
    """One attempt of a pending delivery; the seconds to wait before the next attempt, or None
    when there is none to make (delivered, failed for good, no longer pending, or removed).

    While the receiver's circuit is open (:mod:`.webhook_circuit`) no attempt is made: the
    delivery waits until it closes, its attempts uncounted."""
    delivery = WebhookDelivery.objects.select_related("subscription").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return None
    paused = circuit.wait_for(delivery.subscription)
    if paused is not None:
        return paused
    if attempt(delivery) or delivery.status == DeliveryStatus.FAILED:
        return None
    return backoff(delivery.attempts)


def event_choices() -> list[tuple[str, str]]:
    """The events a subscription may pick, for forms (name, description in the reader's language)."""
    english = current_language() == "en"
    return [(name, f"{name} — {kind.en if english else kind.ru}") for name, kind in EVENTS.items()]
