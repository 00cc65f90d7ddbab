"""Issue 28: a webhook never reaches our own network (SSRF) and never follows a redirect."""

from __future__ import annotations

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import TournamentFactory
from tests.webhook_receiver import webhook_receiver
from tournaments.models import DeliveryStatus, WebhookDelivery
from tournaments.notifications import webhooks
from tournaments.notifications.webhook_transport import UnsafeAddress, is_public, vetted_address


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "::1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "fd12::1",
    "169.254.169.254", "fe80::1", "100.64.0.1", "0.0.0.0", "::", "224.0.0.1", "::ffff:127.0.0.1",
    "::ffff:10.0.0.1", "240.0.0.1",
])  # fmt: skip
def test_loopback_private_link_local_metadata_and_reserved_addresses_are_not_public(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_are_allowed(address):
    assert is_public(address)


@given(st.ip_addresses(v=4, network="10.0.0.0/8") | st.ip_addresses(v=4, network="192.168.0.0/16")
       | st.ip_addresses(v=4, network="169.254.0.0/16") | st.ip_addresses(v=6, network="fe80::/10"))
def test_no_address_of_a_private_or_link_local_network_is_public(address):
    assert not is_public(str(address))


@override_settings(WEBHOOK_ALLOW_LOCAL=False)
def test_a_host_name_is_judged_by_what_it_resolves_to():
    with pytest.raises(UnsafeAddress, match="localhost resolves to"):
        vetted_address("localhost", 80)


def _delivery(url: str) -> WebhookDelivery:
    tournament = TournamentFactory()
    subscription = webhooks.subscribe({"tournament": tournament}, url, [], None)
    return webhooks.test_delivery(subscription)


@pytest.mark.django_db
def test_a_receiver_on_loopback_gets_nothing_without_the_local_setting_and_the_delivery_fails_at_once():
    with webhook_receiver(allow_local=False) as receiver:
        delivery = _delivery(receiver.url)
        assert webhooks.attempt(delivery) is False
    assert receiver.requests == []
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED and delivery.attempts == 1  # not retried
    assert "127.0.0.1" in delivery.error and "not a public address" in delivery.error


@pytest.mark.django_db
def test_a_redirect_is_not_followed_and_the_attempt_fails():
    with webhook_receiver() as target, webhook_receiver(script=[302], location=target.url) as receiver:
        delivery = _delivery(receiver.url)
        assert webhooks.attempt(delivery) is False
    assert len(receiver.requests) == 1 and target.requests == []
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.PENDING and "redirects are not followed" in delivery.error
