"""Issue 47: a schema strict clients accept — OpenAPI 3.1 with no ``nullable``, every header documented.

Generated clients choked on ``allOf: [$ref]`` beside ``nullable`` (strict OpenAPI 3.0
validators refuse it) and knew nothing of the API's header conventions, which were only
in the README. The schema is now 3.1 (a null is ``oneOf`` with ``{"type": "null"}``),
passes a strict validator, and declares each request and response header.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from django.test import Client
from referencing import Registry, Resource

from tests.factories import swiss_event

pytestmark = pytest.mark.django_db
WRITES = ("post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return Client().get("/api/schema/", {"format": "json"}, HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", *WRITES) and not path.endswith("/schema/"):
                yield path, method, operation


def test_the_schema_is_openapi_31_with_no_nullable_and_passes_a_strict_validator(schema):
    from openapi_spec_validator import OpenAPIV31SpecValidator

    assert schema["openapi"] == "3.1.0"
    assert '"nullable"' not in json.dumps(schema)
    OpenAPIV31SpecValidator(schema).validate()


def test_every_operation_documents_the_request_headers_it_honours(schema):
    wanted = {"get": {"Accept-Language", "If-None-Match"}, "post": {"Accept-Language", "Idempotency-Key"},
              "put": {"Accept-Language", "If-Match"}, "patch": {"Accept-Language", "If-Match"},
              "delete": {"Accept-Language", "If-Match"}}  # fmt: skip
    missing = []
    for path, method, operation in _operations(schema):
        have = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        if wanted[method] - have:
            missing.append(f"{method.upper()} {path}: {sorted(wanted[method] - have)}")
    assert not missing, missing


def test_every_answer_documents_its_headers(schema):
    missing = []
    for path, method, operation in _operations(schema):
        paged = any(p["name"] == "page" for p in operation.get("parameters", []))
        for status, answer in operation["responses"].items():
            headers = set(answer.get("headers", {}))
            want = set()
            if status in ("200", "201") and "application/json" in answer.get("content", {}):
                want = {"RateLimit", "RateLimit-Policy", "Content-Language"}
                want |= {"ETag", *(["Link"] if paged else [])} if method == "get" else {"Location", "ETag"}
                want |= {"Idempotent-Replayed"} if method == "post" else set()
            elif status == "429":
                want = {"Retry-After", "RateLimit", "RateLimit-Policy"}
            elif status == "304":
                want = {"ETag"}
            if want - headers:
                missing.append(f"{method.upper()} {path} {status}: {sorted(want - headers)}")
        if method == "get" and "200" in operation["responses"] and "304" not in operation["responses"]:
            missing.append(f"GET {path}: no 304")
    assert not missing, missing[:20]


def test_a_match_with_null_results_validates_against_its_31_schema(schema):
    """The answer generated clients choked on: ``pending_report``, ``confirmed_result`` and ``dispute`` null."""
    event = swiss_event(4, rounds_done=0)
    match = event.rounds.get().matches.order_by("table").first()
    answer = Client().get(f"/api/matches/{match.pk}/").json()
    assert answer["result_state"]["pending_report"] is None and answer["result_state"]["dispute"] is None
    declared = schema["paths"]["/api/matches/{id}/"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    registry = Registry().with_resource("urn:zarik:schema", Resource.from_contents(
        {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema"}))  # fmt: skip
    ref = declared["$ref"].replace("#", "urn:zarik:schema#")
    jsonschema.Draft202012Validator({"$ref": ref}, registry=registry).validate(answer)


def test_live_answers_carry_the_documented_headers():
    answer = Client().get("/api/tournaments/", {"page_size": 1})
    for header in ("ETag", "RateLimit", "RateLimit-Policy", "Content-Language"):
        assert answer.has_header(header), header
    assert Client().get("/api/tournaments/", HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
