"""Issue 28: a subscription's URL, events and secret change over the API; round.published carries
its pairings."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.webhook_receiver import webhook_receiver
from tournaments.models import OfficialRole, WebhookSubscription
from tournaments.rounds.pairing_manager.lifecycle import publish_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    tournament = TournamentFactory(slug="hooks")
    user = UserFactory()
    OfficialFactory(tournament=tournament, user=user, role=OfficialRole.ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return tournament, client


def test_the_url_and_events_change_and_a_rotated_secret_is_shown_once(organiser):
    _tournament, client = organiser
    created = client.post("/api/tournaments/hooks/webhooks/", {"url": "https://example.org/a"}, format="json").json()
    url = f"/api/tournaments/hooks/webhooks/{created['id']}/"
    moved = client.patch(url, {"url": "https://example.org/b", "events": ["round.published"]}, format="json")
    assert moved.status_code == 200 and "secret" not in moved.json()
    assert (moved.json()["url"], moved.json()["events"]) == ("https://example.org/b", ["round.published"])
    rotated = client.patch(url, {"rotate_secret": True}, format="json").json()
    assert rotated["secret"] != created["secret"]
    assert WebhookSubscription.objects.get(pk=created["id"]).secret == rotated["secret"]
    refused = client.patch(url, {"events": ["no.such.event"]}, format="json")
    assert refused.status_code == 400 and "events" in refused.json()["errors"]
    assert WebhookSubscription.objects.get(pk=created["id"]).events == ["round.published"]


@override_settings(WEBHOOK_RUNNER="inline", WEBHOOK_BACKOFF_SECONDS=0)
def test_round_published_carries_the_pairings_with_the_players_named(organiser, django_capture_on_commit_callbacks):
    tournament, client = organiser
    rnd = RoundFactory(tournament=tournament, draft=True)
    a = EntryFactory(tournament=tournament, player__last_name="Иванов", player__first_name="Пётр")
    b = EntryFactory(tournament=tournament, player__last_name="Сидоров", player__first_name="Фёдор")
    match = MatchFactory(round=rnd, table=3, entry_a=a, entry_b=b)
    with webhook_receiver() as receiver:
        client.post("/api/tournaments/hooks/webhooks/", {"url": receiver.url, "events": ["round.published"]},
                    format="json")
        with django_capture_on_commit_callbacks(execute=True):
            publish_round(rnd)
    [received] = receiver.requests
    [pairing] = json.loads(received.body)["data"]["round"]["pairings"]
    assert (pairing["match"], pairing["table"]) == (match.pk, 3)
    assert (pairing["a"]["entry"], pairing["b"]["entry"]) == (a.pk, b.pk)
    assert "Иванов" in pairing["a"]["name"] and "Сидоров" in pairing["b"]["name"]
