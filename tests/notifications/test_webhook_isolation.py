"""One dead webhook receiver never delays another's deliveries; its circuit opens and the page says so.

Issue 45: with a receiver that accepts connections and never answers, a healthy
receiver's test event arrived 42.7 s late (the embedded runner delivered one at a time),
and removing a webhook while its deliveries were queued logged a foreign-key error
retried as a "database error". Real local receivers here: a socket that accepts and
never answers (:class:`Silent`), one that trickles its answer a byte at a time, and
``tests/webhook_receiver.py``'s healthy one; the embedded thread runner delivers.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from tests.factories import OfficialFactory, TournamentFactory, UserFactory
from tests.notifications.test_webhook_runner import holding_receiver
from tests.webhook_receiver import webhook_receiver
from tournaments.models import DeliveryStatus, OfficialRole, WebhookDelivery, WebhookSubscription
from tournaments.notifications import webhooks
from tournaments.notifications.tasks import queue_delivery

pytestmark = pytest.mark.django_db(transaction=True)  # the delivery threads read what the test wrote


class Silent:
    """A receiver that takes every connection in the kernel and never reads or answers."""

    def __enter__(self) -> Silent:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        return self

    def __exit__(self, *exc) -> None:
        self.sock.close()


def _wait(predicate, within: float) -> float:
    """Seconds until ``predicate()`` held (fails after ``within``)."""
    started = time.monotonic()
    while not predicate():
        assert time.monotonic() - started < within, f"not within {within} s"
        time.sleep(0.05)
    return time.monotonic() - started


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite's in-memory test database shares one cache between threads and locks whole tables "
    "without waiting (SQLITE_LOCKED): a delivery thread reading the subscriptions while the test writes "
    "one failed about one run in ten. The embedded default is a WAL file whose writers wait their turn; "
    "this threaded timing test runs on PostgreSQL, where the lanes are the same code.",
)
@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=5, WEBHOOK_MAX_ATTEMPTS=1)
def test_a_healthy_receivers_test_event_arrives_while_a_dead_receiver_holds_its_own_deliveries():
    t = TournamentFactory()
    with Silent() as dead, webhook_receiver() as healthy:
        dead_sub = webhooks.subscribe({"tournament": t}, dead.url, [], None)
        healthy_sub = webhooks.subscribe({"tournament": t}, healthy.url, [], None)
        for _ in range(3):  # three deliveries stuck at the dead receiver, 5 s each
            queue_delivery(webhooks.test_delivery(dead_sub))
        queue_delivery(ping := webhooks.test_delivery(healthy_sub))
        took = _wait(lambda: healthy.requests, within=4.0)  # one timeout behind it would be 5 s, three 15 s
        assert healthy.requests[0].headers["Zarik-Delivery"] == ping.event_id
        assert took < 4.0
        assert WebhookDelivery.objects.filter(subscription=dead_sub, attempts=0).count() >= 2  # still queued there


@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=1, WEBHOOK_MAX_ATTEMPTS=5,
                   WEBHOOK_BACKOFF_SECONDS=0.05, WEBHOOK_CIRCUIT_FAILURES=3, WEBHOOK_CIRCUIT_SECONDS=600)
def test_a_dead_receivers_circuit_opens_its_deliveries_wait_and_the_page_says_so(client):
    t = TournamentFactory()
    organiser = UserFactory()
    OfficialFactory(tournament=t, user=organiser, role=OfficialRole.ORGANISER)
    client.force_login(organiser)
    with Silent() as dead:
        sub = webhooks.subscribe({"tournament": t}, dead.url, [], None)
        deliveries = [webhooks.test_delivery(sub) for _ in range(3)]
        for d in deliveries:
            queue_delivery(d)
        _wait(lambda: WebhookSubscription.objects.get(pk=sub.pk).circuit_open_until is not None, within=20)
        time.sleep(1.5)  # a further attempt would have taken its 1 s timeout by now
        tried = sum(WebhookDelivery.objects.filter(subscription=sub).values_list("attempts", flat=True))
        assert tried == 3  # three failures opened it; no attempt since
        assert set(WebhookDelivery.objects.filter(subscription=sub).values_list("status", flat=True)) == {
            DeliveryStatus.PENDING}  # waiting, not lost
        page = client.get(reverse("manage-webhooks", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en")
        assert "The receiver failed 3 times in a row: its deliveries wait until" in page.content.decode()
        ru = client.get(reverse("manage-webhooks", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="ru")
        assert "Получатель не ответил 3 раза подряд" in ru.content.decode()

        client.post(reverse("manage-webhooks", kwargs={"slug": t.slug}), {"action": "test", "subscription": sub.pk})
        sub.refresh_from_db()
        assert sub.circuit_open_until is None  # "Send a test event" tries it now


@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=1, WEBHOOK_MAX_ATTEMPTS=1)
def test_a_receiver_that_trickles_its_answer_is_cut_at_the_attempts_deadline():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    stop = threading.Event()

    def trickle():
        conn, _addr = server.accept()
        conn.recv(65536)
        for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
            if stop.is_set():
                break
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.2)  # each read is answered well inside the 1 s socket timeout
        conn.close()

    threading.Thread(target=trickle, daemon=True).start()
    sub = webhooks.subscribe({"tournament": TournamentFactory()},
                             f"http://127.0.0.1:{server.getsockname()[1]}/hook", [], None)
    delivery = webhooks.test_delivery(sub)
    started = time.monotonic()
    try:
        webhooks.attempt(delivery)
    finally:
        stop.set()
        server.close()
    assert time.monotonic() - started < 3
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED and "timed out" in delivery.error


@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=30, WEBHOOK_MAX_ATTEMPTS=1)
def test_removing_a_webhook_with_queued_deliveries_is_clean(client, caplog):
    t = TournamentFactory()
    organiser = UserFactory()
    OfficialFactory(tournament=t, user=organiser, role=OfficialRole.ORGANISER)
    client.force_login(organiser)
    with holding_receiver() as receiver:
        sub = webhooks.subscribe({"tournament": t}, receiver.url, [], None)
        on_the_wire, *queued = [webhooks.test_delivery(sub) for _ in range(3)]
        for d in (on_the_wire, *queued):
            queue_delivery(d)
        assert receiver.holds(on_the_wire.event_id)
        with caplog.at_level("WARNING"):
            page = client.post(reverse("manage-webhooks", kwargs={"slug": t.slug}),
                               {"action": "delete", "subscription": sub.pk}, follow=True)
            assert page.status_code == 200
            with receiver.lock:
                receiver.held.pop(on_the_wire.event_id).close()  # its answer comes after the removal
            time.sleep(1.0)
    assert not WebhookSubscription.objects.filter(pk=sub.pk).exists()
    assert not WebhookDelivery.objects.exists()  # no row written back for a removed webhook
    assert "IntegrityError" not in caplog.text and "database error" not in caplog.text, caplog.text
    assert len(receiver.held) == 0  # the queued ones were never sent
