"""Issue 47: webhooks for the event's people — entries, check-in, withdrawals, registrations, sanctions.

Each is a row of the one table (:data:`tournaments.events.EVENTS`) emitted by the service
the pages and the API share; a real local HTTP receiver gets each once, signed, with the
entry (or application, or sanction) described by name and status, and each payload
matches the schema the README and ``/api/schema/`` document.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.test import Client, override_settings

from clubs.models import ClubRole
from tests.api.test_webhook_event_types import as_json_schema
from tests.factories import ClubFactory, UserFactory
from tests.webhook_receiver import webhook_receiver
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import Entry, TokenScope, Tournament, WebhookSubscription
from tournaments.notifications.event_docs import payload_schema

pytestmark = pytest.mark.django_db

PEOPLE = ["entry.added", "entry.checked_in", "entry.withdrawn", "registration.received", "sanction.recorded"]


def _post(client, url, body=None):
    answer = client.post(url, body or {}, content_type="application/json")
    assert answer.status_code in (200, 201), (url, answer.status_code, answer.content[:400])
    return answer.json()


@override_settings(WEBHOOK_BACKOFF_SECONDS=0, WEBHOOK_MAX_ATTEMPTS=1, WEBHOOK_TIMEOUT=2, WEBHOOK_RUNNER="inline")
def test_the_events_people_are_heard_of_once_each_with_names_and_status(django_capture_on_commit_callbacks):
    club = ClubFactory()
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "desk", TokenScope.WRITE)
    desk = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")
    _post(desk, "/api/tournaments/", {
        "club": club.slug, "name": "Heard", "slug": "heard", "starts_on": "2026-05-01", "system": "swiss",
        "rounds_planned": 3, "match_length": 5, "public": True, "seeding": "registration",
        "registration_open": True, "registration_approval": True,
    })  # fmt: skip
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=Tournament.objects.get(slug="heard"), url=receiver.url,
                                           secret="s", events=PEOPLE)  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):
            [entered] = _post(desk, "/api/tournaments/heard/entries/", [
                {"last_name": "Слышимов", "first_name": "Иван", "category": 5},
            ])  # fmt: skip
        entry = Entry.objects.get(pk=entered["id"])
        player = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(entry)}")
        with django_capture_on_commit_callbacks(execute=True):
            _post(player, f"/api/tournaments/heard/entries/{entry.pk}/check-in/")
            _post(player, f"/api/tournaments/heard/entries/{entry.pk}/check-in/")  # already in: no second event
        with django_capture_on_commit_callbacks(execute=True):
            applied = _post(Client(), "/api/tournaments/heard/registrations/", {
                "last_name": "Заявкин", "first_name": "Олег", "email": "oleg@example.org", "category": 4,
            })  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):  # an approved application is an entry added
            _post(desk, f"/api/tournaments/heard/registrations/{applied['id']}/approve/", {"player": "new"})
        with django_capture_on_commit_callbacks(execute=True):
            _post(desk, "/api/tournaments/heard/sanctions/", {"entry": entry.pk, "kind": "warning", "reason": "noisy"})
        with django_capture_on_commit_callbacks(execute=True):
            _post(desk, f"/api/tournaments/heard/entries/{entry.pk}/withdraw/", {"reason": "left ill"})
    bodies = [json.loads(r.body) for r in receiver.requests]
    assert [b["event"] for b in bodies] == [
        "entry.added", "entry.checked_in", "registration.received", "entry.added", "sanction.recorded",
        "entry.withdrawn",
    ]  # fmt: skip
    for body in bodies:
        jsonschema.validate(body, as_json_schema(payload_schema(body["event"])))
    added, checked_in, applied, approved, sanction, withdrawn = (b["data"] for b in bodies)
    assert approved["entry"]["name"].startswith("Заявкин")
    assert added["entry"]["name"].startswith("Слышимов") and added["entry"]["status"] == "registered"
    assert checked_in["entry"]["status"] == "checked_in"
    assert applied["registration"]["name"] == "Заявкин Олег" and "email" not in applied["registration"]
    assert sanction["sanction"]["kind"] == "warning" and sanction["entry"]["entry"] == entry.pk
    assert withdrawn["entry"]["status"] == "withdrawn" and withdrawn["reason"] == "left ill"
