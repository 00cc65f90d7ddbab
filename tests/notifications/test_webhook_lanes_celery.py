"""Webhook lanes under Celery: a dead receiver never holds the worker's every slot (issue 45).

The thread runner of ``make run`` gives each subscription its own lane; a real Celery worker
(``ZARIK_TEST_BROKER_URL``, three threads here) used to take a dead receiver's queued
deliveries into all its slots, one ``WEBHOOK_TIMEOUT`` each, and a healthy receiver waited
behind them. Now an attempt takes its subscription's lane on the shared cache first
(:func:`tournaments.notifications.webhook_runner.enter_lane`); the dead receiver's other
deliveries find it taken and come back later without a slot, so the healthy delivery goes
through while the dead receiver's first attempt still hangs.
"""

from __future__ import annotations

import time

import pytest

from tests.factories import TournamentFactory
from tests.notifications.test_webhook_isolation import Silent
from tests.webhook_receiver import webhook_receiver
from tournaments.models import WebhookDelivery
from tournaments.notifications import webhooks
from tournaments.notifications.tasks import queue_delivery

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_pool(monkeypatch) -> list[str]:
    monkeypatch.setenv("WEBHOOK_ALLOW_LOCAL", "1")  # the receivers are on this machine
    return ["--pool=threads", "--concurrency=3"]


def test_a_healthy_receiver_is_delivered_while_a_dead_receivers_first_attempt_still_hangs(celery_worker_app,
                                                                                         settings):
    settings.WEBHOOK_ALLOW_LOCAL = True
    t = TournamentFactory()
    with Silent() as dead, webhook_receiver() as healthy:
        dead_sub = webhooks.subscribe({"tournament": t}, dead.url, [], None)
        healthy_sub = webhooks.subscribe({"tournament": t}, healthy.url, [], None)
        for _ in range(4):  # more than the worker's three slots: without lanes all of them hang 5 s
            queue_delivery(webhooks.test_delivery(dead_sub))
        time.sleep(0.5)  # the dead receiver's deliveries reach the worker first
        queue_delivery(ping := webhooks.test_delivery(healthy_sub))
        deadline = time.monotonic() + 60
        while not healthy.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        attempted_at_dead = list(WebhookDelivery.objects.filter(subscription=dead_sub).values_list("attempts", flat=True))
        assert healthy.requests and healthy.requests[0].headers["Zarik-Delivery"] == ping.event_id
        # No attempt at the dead receiver had ended (each takes WEBHOOK_TIMEOUT, 5 s): the healthy
        # delivery did not wait for one.
        assert attempted_at_dead == [0, 0, 0, 0]
