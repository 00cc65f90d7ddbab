"""Webhooks: signed JSON delivered to a real local HTTP server, retried with backoff, logged."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ClubRole
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.webhook_receiver import webhook_receiver
from tournaments.models import DeliveryStatus, OfficialRole, WebhookDelivery, WebhookSubscription
from tournaments.notifications import webhooks
from tournaments.rounds.pairing_manager.lifecycle import publish_round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_retries")]


@pytest.fixture
def quick_retries():
    # inline: the attempts run right after the action, so the tests read the log at once
    # (the real runners, a thread or Celery, are in test_webhook_runner.py)
    with override_settings(WEBHOOK_BACKOFF_SECONDS=0, WEBHOOK_MAX_ATTEMPTS=4, WEBHOOK_TIMEOUT=2,
                           WEBHOOK_RUNNER="inline"):
        yield


def draft_round(tournament):
    rnd = RoundFactory(tournament=tournament, draft=True)
    a = EntryFactory(tournament=tournament, player__last_name="Иванов", player__first_name="Пётр")
    b = EntryFactory(tournament=tournament, player__last_name="Сидоров", player__first_name="Фёдор")
    MatchFactory(round=rnd, table=3, entry_a=a, entry_b=b)
    return rnd


def publish(rnd, capture):
    with capture(execute=True):
        publish_round(rnd)


def test_a_published_round_arrives_signed_with_names_and_numbers(django_capture_on_commit_callbacks):
    t = TournamentFactory(name="Кубок Зарика", slug="kubok")
    rnd = draft_round(t)
    with webhook_receiver() as receiver:
        sub = WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="s3cret")
        publish(rnd, django_capture_on_commit_callbacks)
    [request] = receiver.requests
    headers = request.headers
    assert headers["Zarik-Signature"] == webhooks.signature("s3cret", headers["Zarik-Timestamp"], request.body)
    assert webhooks.verify("s3cret", headers["Zarik-Timestamp"], request.body, headers["Zarik-Signature"])
    assert not webhooks.verify("other", headers["Zarik-Timestamp"], request.body, headers["Zarik-Signature"])
    body = json.loads(request.body)
    assert body["event"] == "round.published"
    assert body["tournament"] == {"slug": "kubok", "name": "Кубок Зарика"}
    assert body["data"]["round"]["number"] == 1
    delivery = WebhookDelivery.objects.get(subscription=sub)
    assert body["id"] == delivery.event_id
    assert (delivery.status, delivery.attempts, delivery.response_status) == (DeliveryStatus.DELIVERED, 1, 200)
    assert delivery.delivered_at is not None


def test_a_failing_receiver_is_retried_and_every_attempt_is_logged(django_capture_on_commit_callbacks):
    t = TournamentFactory()
    rnd = draft_round(t)
    with webhook_receiver(script=[500, 503]) as receiver:
        sub = WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x")
        publish(rnd, django_capture_on_commit_callbacks)
    assert len(receiver.requests) == 3
    ids = {json.loads(r.body)["id"] for r in receiver.requests}
    assert len(ids) == 1  # the same event each time: receivers can deduplicate
    delivery = WebhookDelivery.objects.get(subscription=sub)
    assert (delivery.status, delivery.attempts, delivery.response_status) == (DeliveryStatus.DELIVERED, 3, 200)


def test_a_receiver_that_never_answers_2xx_ends_failed_after_the_last_attempt(
    django_capture_on_commit_callbacks,
):
    t = TournamentFactory()
    rnd = draft_round(t)
    with webhook_receiver(default=500) as receiver:
        sub = WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x")
        publish(rnd, django_capture_on_commit_callbacks)
    assert len(receiver.requests) == 4
    delivery = WebhookDelivery.objects.get(subscription=sub)
    assert (delivery.status, delivery.attempts, delivery.response_status) == (DeliveryStatus.FAILED, 4, 500)
    assert delivery.response_body.startswith("receiver is down")
    assert delivery.error == "HTTP 500"


def test_backoff_doubles_from_the_base_within_half_of_it_either_way():
    with override_settings(WEBHOOK_BACKOFF_SECONDS=10):
        for n, middle in ((1, 10), (2, 20), (3, 40), (4, 80)):
            waits = {webhooks.backoff(n) for _ in range(50)}
            assert all(middle * 0.5 <= w <= middle * 1.5 for w in waits) and len(waits) > 1  # jittered


def test_only_chosen_events_of_active_subscriptions_and_the_club_hears_its_events(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    t = TournamentFactory(club=club)
    rnd = draft_round(t)
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url + "/deaf", secret="x", events=["dispute.opened"])
        WebhookSubscription.objects.create(tournament=t, url=receiver.url + "/paused", secret="x", active=False)
        WebhookSubscription.objects.create(club=club, url=receiver.url + "/club", secret="x")
        WebhookSubscription.objects.create(club=ClubFactory(), url=receiver.url + "/other", secret="x")
        publish(rnd, django_capture_on_commit_callbacks)
    assert [r.path for r in receiver.requests] == ["/hook/club"]


def test_an_event_nobody_listens_to_costs_no_task_and_a_new_subscription_hears_the_next_one(
    django_capture_on_commit_callbacks,
):
    t = TournamentFactory()
    first, second = draft_round(t), RoundFactory(tournament=t, number=2, draft=True)
    MatchFactory(round=second, table=1)
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=["dispute.opened"])
        publish(first, django_capture_on_commit_callbacks)  # heard by nobody: nothing planned
        assert not webhooks.anyone_listens("round.published")
        assert webhooks.anyone_listens("dispute.opened")
        assert not WebhookDelivery.objects.exists()
        WebhookSubscription.objects.create(tournament=t, url=receiver.url + "/new", secret="x")
        assert webhooks.anyone_listens("round.published")  # the cached answer was forgotten at once
        publish(second, django_capture_on_commit_callbacks)
    assert [r.path for r in receiver.requests] == ["/hook/new"]
    assert json.loads(receiver.requests[0].body)["data"]["round"]["number"] == 2


def test_an_unreachable_url_is_logged_as_an_error_not_raised(django_capture_on_commit_callbacks):
    t = TournamentFactory()
    rnd = draft_round(t)
    with webhook_receiver() as receiver:
        url = receiver.url
    sub = WebhookSubscription.objects.create(tournament=t, url=url, secret="x")  # server gone
    publish(rnd, django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get(subscription=sub)
    assert delivery.status == DeliveryStatus.FAILED
    assert delivery.response_status is None and delivery.error


# --------------------------------------------------------------------------- the organiser's pages


def organiser_of(tournament, client):
    user = UserFactory()
    OfficialFactory(tournament=tournament, user=user, role=OfficialRole.ORGANISER)
    client.force_login(user)
    return user


def test_the_organiser_adds_sees_the_secret_once_tests_pauses_and_redelivers(client):
    t = TournamentFactory()
    organiser_of(t, client)
    url = reverse("manage-webhooks", kwargs={"slug": t.slug})
    with webhook_receiver(script=[500]) as receiver:
        page = client.post(url, {"action": "add", "url": receiver.url, "events": ["round.published"]}, follow=True)
        sub = WebhookSubscription.objects.get(tournament=t)
        assert sub.events == ["round.published"] and sub.created_by is not None
        assert sub.secret in page.content.decode()
        assert sub.secret not in client.get(url).content.decode()  # only once
        client.post(url, {"action": "test", "subscription": sub.pk})
        [ping] = receiver.requests[-1:]
        assert json.loads(ping.body)["event"] == "ping"
        delivery = WebhookDelivery.objects.get(subscription=sub)
        assert delivery.attempts == 2 and delivery.status == DeliveryStatus.DELIVERED  # a 500, then 200
        page = client.get(url).content.decode()
        assert f'id="delivery-{delivery.pk}"' in page and "ping" in page
        client.post(url, {"action": "redeliver", "delivery": delivery.pk})
        assert len(receiver.requests) == 3
        delivery.refresh_from_db()
        assert (delivery.attempts, delivery.status) == (1, DeliveryStatus.DELIVERED)
    client.post(url, {"action": "pause", "subscription": sub.pk})
    sub.refresh_from_db()
    assert sub.active is False
    client.post(url, {"action": "delete", "subscription": sub.pk})
    assert not WebhookSubscription.objects.filter(pk=sub.pk).exists()


def test_a_bad_url_is_a_clear_error_and_the_input_is_kept(client):
    t = TournamentFactory()
    organiser_of(t, client)
    url = reverse("manage-webhooks", kwargs={"slug": t.slug})
    page = client.post(url, {"action": "add", "url": "not a url", "events": ["dispute.opened"]})
    assert page.status_code == 400
    html = page.content.decode()
    assert 'value="not a url"' in html and "checked" in html
    assert not WebhookSubscription.objects.exists()


def test_only_organisers_reach_the_pages(client):
    club = ClubFactory()
    t = TournamentFactory(club=club)
    client.force_login(UserFactory())
    assert client.get(reverse("manage-webhooks", kwargs={"slug": t.slug})).status_code == 403
    assert client.get(reverse("club-webhooks", kwargs={"slug": club.slug})).status_code == 403


def test_the_club_organiser_manages_the_club_webhooks(client):
    club = ClubFactory()
    user = UserFactory()
    ClubRole.objects.create(club=club, user=user)
    client.force_login(user)
    url = reverse("club-webhooks", kwargs={"slug": club.slug})
    assert client.get(url).status_code == 200
    client.post(url, {"action": "add", "url": "https://example.org/hook"})
    assert WebhookSubscription.objects.get(club=club).events == []


# --- the API's subscriptions ---------------------------------------------------------------------


def test_an_integrator_subscribes_pings_and_reads_the_log_over_the_api():
    t = TournamentFactory(slug="api-hooks")
    organiser = OfficialFactory(tournament=t, role=OfficialRole.ORGANISER).user
    api = APIClient()
    api.force_authenticate(organiser)
    url = "/api/tournaments/api-hooks/webhooks/"
    with webhook_receiver() as receiver:
        created = api.post(url, {"url": receiver.url, "events": ["round.published"]}, format="json")
        assert created.status_code == 201, created.json()
        sub = created.json()
        assert len(sub["secret"]) >= 32 and sub["events"] == ["round.published"]
        assert "secret" not in api.get(f"{url}{sub['id']}/").json()  # shown once
        ping = api.post(f"{url}{sub['id']}/test/")
        assert ping.status_code == 202 and ping.json()["status"] == DeliveryStatus.DELIVERED
    [request] = receiver.requests
    assert webhooks.verify(sub["secret"], request.headers["Zarik-Timestamp"], request.body,
                           request.headers["Zarik-Signature"])  # fmt: skip
    log = api.get(f"{url}{sub['id']}/deliveries/").json()["results"]
    assert [(d["event"], d["status"], d["attempts"]) for d in log] == [("ping", "delivered", 1)]
    paused = api.patch(f"{url}{sub['id']}/", {"active": False}, format="json")
    assert paused.status_code == 200 and not WebhookSubscription.objects.get(pk=sub["id"]).active
    assert api.delete(f"{url}{sub['id']}/").status_code == 204


def test_a_bad_webhook_url_is_a_field_error_and_strangers_are_refused():
    club = ClubFactory(slug="hooks-club")
    manager = UserFactory()
    ClubRole.objects.create(club=club, user=manager, role="organiser")
    api = APIClient()
    api.force_authenticate(manager)
    bad = api.post("/api/clubs/hooks-club/webhooks/", {"url": "not a url", "events": ["nope"]}, format="json",
                   HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert bad.status_code == 400 and {"url", "events"} <= set(bad.json()["errors"])
    assert not WebhookSubscription.objects.exists()
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.get("/api/clubs/hooks-club/webhooks/").status_code == 403
