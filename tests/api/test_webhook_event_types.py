"""Issue 28 item 6: the webhook event types are listed — in the API, the OpenAPI schema and the
manual — from the one table (``tournaments/events.py``), and real payloads match what is listed.

Also: the request examples of the issue-28 endpoints validate against their own schema.
"""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory
from tournaments import events
from tournaments.events import EVENTS
from tournaments.notifications import event_details, webhooks
from tournaments.notifications.event_docs import (
    README_END,
    README_START,
    component_name,
    payload_schema,
    readme_table,
)
from tournaments.rounds.pairing_manager.lifecycle import publish_round

#: The manual's table of event types (issue 48 moved it from the README), shown on the integrator's
#: webhooks page in both languages.
TABLE = Path(__file__).resolve().parents[2] / "docs" / "snippets" / "webhook-events.md"


def as_json_schema(schema):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's ``null`` type (jsonschema knows no ``nullable``)."""
    if isinstance(schema, list):
        return [as_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: as_json_schema(v) for k, v in schema.items() if k != "nullable"}
    if schema.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if "allOf" in out or "$ref" in out:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def inline_refs(schema, components):
    if isinstance(schema, list):
        return [inline_refs(s, components) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return inline_refs(components[name], components)
    return {k: inline_refs(v, components) for k, v in schema.items()}


@pytest.fixture(scope="module")
def openapi():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_manuals_event_table_is_the_generated_one():
    text = TABLE.read_text(encoding="utf-8")
    start, end = text.index(README_START), text.index(README_END) + len(README_END)
    assert text[start:end] == readme_table(), f"paste readme_table() into {TABLE} between the markers"


def test_every_event_type_names_a_shape_for_each_data_key():
    for name, kind in EVENTS.items():
        missing = [key for key in kind.data if key not in event_details.SHAPES]
        assert not missing, (name, missing)


def test_emitting_a_data_key_the_table_does_not_declare_is_refused():
    with pytest.raises(KeyError, match="declares no data"):
        events.emit("round.published", 1, round=1, number=1, surprise=True)


@pytest.mark.django_db
def test_webhook_events_endpoint_lists_every_event_with_its_data():
    answer = Client().get("/api/webhook-events/")
    assert answer.status_code == 200
    rows = {row["event"]: row for row in answer.json()}
    assert list(rows) == list(EVENTS)
    published = rows["round.published"]
    assert "pairings" in published["data"]["properties"]["round"]["properties"]
    assert published["schema"] == "#/components/schemas/WebhookRoundPublished"
    assert published["description_ru"] == "Опубликованы пары тура"


def test_openapi_schema_has_a_payload_component_per_event(openapi):
    schemas = openapi["components"]["schemas"]
    for name in EVENTS:
        assert schemas[component_name(name)]["properties"]["event"]["enum"] == [name]


@pytest.mark.django_db
def test_round_published_payload_carries_the_pairings_and_matches_its_schema(django_capture_on_commit_callbacks):
    heard: list[events.Event] = []
    events.subscribe(heard.append)
    try:
        tournament = TournamentFactory()
        rnd = RoundFactory(tournament=tournament, draft=True)
        a = EntryFactory(tournament=tournament, player__last_name="Иванов")
        b = EntryFactory(tournament=tournament, player__last_name="Сидоров")
        MatchFactory(round=rnd, table=1, entry_a=a, entry_b=b)
        MatchFactory(round=rnd, table=2, entry_a=EntryFactory(tournament=tournament), entry_b=None)
        with django_capture_on_commit_callbacks(execute=True):
            publish_round(rnd)
    finally:
        events._HANDLERS.remove(heard.append)
    [event] = [e for e in heard if e.name == "round.published"]
    body = webhooks.payload(event.name, tournament, event_details.describe(event))
    jsonschema.validate(body, as_json_schema(payload_schema("round.published")))
    pairings = body["data"]["round"]["pairings"]
    assert [p["table"] for p in pairings] == [1, 2]
    assert (pairings[0]["a"]["entry"], pairings[0]["b"]["entry"]) == (a.pk, b.pk)
    assert pairings[0]["a"]["name"].startswith("Иванов")
    assert pairings[1]["b"] is None  # the bye


#: The operations of issue 28's entries, check-in and registration endpoints.
OWN_PATHS = (
    "/api/tournaments/{tournament_slug}/entries/{id}/",
    "/api/tournaments/{tournament_slug}/registrations/",
    "/api/tournaments/{tournament_slug}/registrations/{id}/approve/",
    "/api/tournaments/{tournament_slug}/registrations/{id}/refuse/",
)


def test_request_examples_of_the_entries_and_registrations_endpoints_validate(openapi):
    components = openapi["components"]["schemas"]
    checked = 0
    for path in OWN_PATHS:
        for operation in openapi["paths"][path].values():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if not content:
                continue
            schema = as_json_schema(inline_refs(copy.deepcopy(content["schema"]), components))
            for name, example in content.get("examples", {}).items():
                assert name and jsonschema.validate(example["value"], schema) is None
                checked += 1
    assert checked >= 7
