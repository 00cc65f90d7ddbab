"""Issue 29, from the attacker's side: a club organiser subscribes a webhook to this machine's
own services and reads the delivery log over the API. Before: the delivery reached
``127.0.0.1`` and followed a redirect, so the log showed the internal ``/healthz`` body and
ports could be probed. Now nothing is sent to a non-public address, a redirect to one is not
followed, and the log says why without any body from inside."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from rest_framework.test import APIClient

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tests.webhook_receiver import webhook_receiver
from tournaments.models import WebhookSubscription

pytestmark = pytest.mark.django_db

INTERNAL_BODY = "internal-status-secret"


@pytest.fixture(autouse=True)
def _inline_deliveries(settings):
    """Deliveries attempted right after the request (the real runners are tested elsewhere),
    one attempt each, so the log is read at once."""
    settings.WEBHOOK_RUNNER = "inline"
    settings.WEBHOOK_BACKOFF_SECONDS = 0
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    settings.WEBHOOK_TIMEOUT = 2


@pytest.fixture
def attacker():
    """An organiser of their own club (anyone may found one), with an API client."""
    club = ClubFactory(slug="probe-club")
    user = UserFactory(username="prober")
    ClubRole.objects.create(club=club, user=user, role="organiser")
    api = APIClient()
    api.force_authenticate(user)
    return api


def _probe(api: APIClient, url: str) -> list[dict]:
    """Subscribe ``url``, ask for a test delivery, read the log as the attacker would.

    The subscription is let through at creation as a host name that resolved to a public
    address then and to an internal one at delivery would be (DNS rebinding): creation
    refuses a local address itself (issue 45, below), each delivery checks again."""
    with override_settings(WEBHOOK_ALLOW_LOCAL=True):
        created = api.post("/api/clubs/probe-club/webhooks/", {"url": url, "events": ["round.published"]},
                           format="json")  # fmt: skip
    assert created.status_code == 201, created.json()
    sub = created.json()["id"]
    ping = api.post(f"/api/clubs/probe-club/webhooks/{sub}/test/")
    assert ping.status_code < 500
    return api.get(f"/api/clubs/probe-club/webhooks/{sub}/deliveries/").json()["results"]


def test_a_webhook_to_a_loopback_service_sends_nothing_and_leaks_nothing(attacker):
    with webhook_receiver(allow_local=False, default=200) as internal:
        log = _probe(attacker, internal.url.replace("/hook", "/healthz"))
    assert internal.requests == []  # the internal service never saw a request
    [delivery] = log
    assert delivery["status"] == "failed"
    assert "not a public address" in delivery["error"]
    assert INTERNAL_BODY not in str(log)


def test_a_redirect_to_an_internal_address_is_not_followed(attacker):
    # The attacker's own public-looking receiver answers 302 to an internal service; the
    # test lets the first hop through (a local receiver stands for the attacker's server).
    with webhook_receiver(default=200) as internal, webhook_receiver(
        script=[302, 302, 302], location=internal.url.replace("/hook", "/healthz")
    ) as outside:
        log = _probe(attacker, outside.url)
    assert len(outside.requests) >= 1 and internal.requests == []
    assert all("redirects are not followed" in d["error"] for d in log)


def test_probing_other_ports_answers_the_same_refusal_whatever_listens(attacker):
    """An open and a closed port on this machine look alike to the attacker: both refused
    before any connection, with the same words."""
    with webhook_receiver(allow_local=False) as open_port:
        port = int(open_port.url.split(":")[2].split("/")[0])
        answers = [_probe(attacker, f"http://127.0.0.1:{p}/")[0] for p in (port, 9)]
    assert open_port.requests == []
    assert [a["status"] for a in answers] == ["failed", "failed"]
    assert [a["error"].replace(str(p), "PORT") for a, p in zip(answers, (port, 9), strict=True)] == [
        answers[0]["error"].replace(str(port), "PORT")
    ] * 2


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379/", "http://10.0.0.5/hook", "http://169.254.169.254/latest/",
                                 "http://[::1]:8000/", "http://localhost/healthz"])
def test_a_webhook_to_a_local_or_private_address_is_refused_when_created(attacker, client, url):
    """Issue 45: accepted at creation before, failing only at delivery. Refused at once now, by
    the API and the page alike (one form), naming the host, nothing saved."""
    answer = attacker.post("/api/clubs/probe-club/webhooks/", {"url": url, "events": []}, format="json",
                           HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert "is a local or private address" in str(answer.json())
    client.force_login(User.objects.get(username="prober"))
    page = client.post("/clubs/probe-club/webhooks/", {"action": "add", "url": url}, HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 400 and "локальный или частный адрес" in page.content.decode()
    assert f'value="{url}"' in page.content.decode()  # what was typed is kept
    assert not WebhookSubscription.objects.exists()
