"""The OpenAPI schema is the contract (issue 28, item 3): what it says is what the API answers.

An integrator reads ``/api/schema/`` and nothing else, so each test here holds one of
its promises: errors are RFC 9457 problems in ``application/problem+json`` whose
bodies match the declared ``ProblemDetails`` schema, every operation declares them,
every request body's example is a valid body, and the document itself is valid
OpenAPI (``openapi-spec-validator``, when installed).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import OfficialFactory, PlayerFactory, TournamentFactory
from tournaments.api.http.schema import PROBLEM_STATUSES
from tournaments.api.http.tokens import issue
from tournaments.models import Match, OfficialRole, TokenScope, WebhookSubscription
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", {"format": "json"}, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def as_json_schema(node: Any, request: bool = False) -> Any:
    """OpenAPI 3.0's schema dialect as JSON Schema: ``nullable`` becomes a ``null`` type, and in
    a request a ``readOnly`` property is never required (OpenAPI 3.0.3, Schema Object, readOnly)."""
    if isinstance(node, list):
        return [as_json_schema(item, request) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_json_schema(value, request) for key, value in node.items() if key not in ("nullable", "example")}
    if request and "required" in out and isinstance(node.get("properties"), dict):
        out["required"] = [
            name for name in out["required"] if not node["properties"].get(name, {}).get("readOnly")
        ]
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def validator_for(schema: dict[str, Any], sub: dict[str, Any], request: bool = False) -> jsonschema.Validator:
    """A validator of ``sub`` that resolves ``#/components/...`` against the whole document, in the
    document's dialect: JSON Schema 2020-12 for OpenAPI 3.1 (issue 47), draft 4 for 3.0."""
    whole = as_json_schema(copy.deepcopy(schema), request)
    root = {**as_json_schema(sub, request), "components": whole["components"]}
    if schema["openapi"].startswith("3.1"):
        return jsonschema.Draft202012Validator(root)
    return jsonschema.Draft4Validator(root)


def operations(schema: dict[str, Any]):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def operation_for(schema: dict[str, Any], method: str, url: str) -> dict[str, Any]:
    """The operation whose path template matches ``url``."""
    for path, item in schema["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"
        if re.match(pattern, url.split("?")[0]) and method in item:
            return item[method]
    raise AssertionError(f"no operation for {method.upper()} {url}")


# --- every operation declares its errors --------------------------------------------------------


def test_every_operation_declares_its_4xx_as_problem_json(schema):
    """Every operation but the schema document itself (served in OpenAPI's own media types)."""
    missing = []
    for path, method, operation in operations(schema):
        if path.endswith("/schema/"):
            continue
        declared = operation["responses"]
        for status in PROBLEM_STATUSES[method]:
            answer = declared.get(status)
            content = (answer or {}).get("content", {})
            if list(content) != [PROBLEM] or content[PROBLEM]["schema"] != {"$ref": "#/components/schemas/ProblemDetails"}:
                missing.append(f"{method.upper()} {path} {status}")
    assert not missing, missing


def test_no_error_is_declared_as_plain_json(schema):
    plain = [
        f"{method.upper()} {path} {status}"
        for path, method, operation in operations(schema)
        for status, answer in operation["responses"].items()
        if status[0] in "45" and "application/json" in answer.get("content", {})
    ]
    assert not plain, plain


# --- problem bodies match the schema they are declared with -----------------------------------


@pytest.fixture
def referee(client, demo):
    """The demo's referee, logged in, and a published round-3 match of the demo's Swiss event."""
    client.force_login(get_user_model().objects.get(username="referee"))
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).order_by("table").first()
    return client, match


def assert_problem_as_declared(schema, method: str, url: str, response, status: int) -> dict[str, Any]:
    """The answer has the status, the media type and a body that the schema declares for it."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    declared = operation_for(schema, method, url)["responses"]
    assert str(status) in declared, f"{method.upper()} {url} answers an undeclared {status}"
    body = response.json()
    validator_for(schema, declared[str(status)]["content"][PROBLEM]["schema"]).validate(body)
    return body


def test_a_stale_report_is_a_409_problem_with_problems_and_no_undocumented_member(schema, referee):
    client, match = referee
    url = f"/api/matches/{match.pk}/report/"
    stale = client.post(url, {"final": [7, 3], "version": match.version + 5}, content_type="application/json")
    body = assert_problem_as_declared(schema, "post", url, stale, 409)
    assert body["code"].startswith("workflow.")
    assert [p["code"] for p in body["problems"]] == [body["code"]] and body["problems"][0]["message"]
    assert set(body) <= set(schema["components"]["schemas"]["ProblemDetails"]["properties"])


def test_a_confirm_of_an_unknown_report_is_a_problem_of_the_same_shape(schema, referee):
    client, match = referee
    url = f"/api/matches/{match.pk}/confirm/"
    refused = client.post(url, {"result": 999999, "version": match.version}, content_type="application/json")
    assert refused.status_code in (404, 409), refused.content
    body = assert_problem_as_declared(schema, "post", url, refused, refused.status_code)
    assert set(body) <= set(schema["components"]["schemas"]["ProblemDetails"]["properties"])
    match.refresh_from_db()
    assert match.result_status != "confirmed"


def test_invalid_fields_are_a_400_problem_naming_them(schema, referee):
    client, match = referee
    url = f"/api/matches/{match.pk}/report/"
    bad = client.post(url, {"final": [7], "version": 0, "match_lenght": 3}, content_type="application/json")
    body = assert_problem_as_declared(schema, "post", url, bad, 400)
    assert body["errors"]


def test_no_token_a_bad_token_and_a_read_only_token_are_problems_as_declared(schema, referee, django_user_model):
    _client, match = referee
    url = f"/api/matches/{match.pk}/report/"
    anonymous = Client().post(url, {"final": [7, 3], "version": 1}, content_type="application/json")
    assert_problem_as_declared(schema, "post", url, anonymous, 401)
    unknown = Client().get("/api/tournaments/", HTTP_AUTHORIZATION="Token nope")
    assert_problem_as_declared(schema, "get", "/api/tournaments/", unknown, 401)
    reader = django_user_model.objects.create_user("reader-contract")
    _token, key = issue(reader, "read", TokenScope.READ)
    read_only = Client().post(url, {"final": [7, 3], "version": 1}, content_type="application/json",
                              HTTP_AUTHORIZATION=f"Token {key}")  # fmt: skip
    assert_problem_as_declared(schema, "post", url, read_only, 403)


def test_a_missing_resource_and_a_page_past_the_last_are_404_problems_as_declared(schema, demo):
    missing = Client().get("/api/matches/999999/")
    assert_problem_as_declared(schema, "get", "/api/matches/999999/", missing, 404)
    past = Client().get("/api/tournaments/", {"page": 999})
    assert_problem_as_declared(schema, "get", "/api/tournaments/?page=999", past, 404)


# --- request examples are valid bodies ---------------------------------------------------------


def request_examples(schema):
    for path, method, operation in operations(schema):
        content = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if not content:
            continue
        for name, example in (content.get("examples") or {}).items():
            yield f"{method.upper()} {path} [{name}]", content["schema"], example["value"]


def test_every_request_example_is_a_valid_body_of_its_operation(schema):
    examples = list(request_examples(schema))
    assert len(examples) > 30  # the schema does carry them: a generator change that drops them fails here
    wrong = {}
    for where, body_schema, value in examples:
        errors = [e.message for e in validator_for(schema, body_schema, request=True).iter_errors(value)]
        if errors:
            wrong[where] = errors
    assert not wrong, wrong


def test_every_request_body_has_an_example(schema):
    without = [
        f"{method.upper()} {path}"
        for path, method, operation in operations(schema)
        if (content := operation.get("requestBody", {}).get("content", {}).get("application/json"))
        and not content.get("examples")
    ]
    assert not without, without


# --- the document is valid OpenAPI -------------------------------------------------------------


def test_the_schema_passes_openapi_spec_validator(schema):
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(schema)


# --- the known mismatches of issue 28, each answered as declared ---------------------------------


def assert_answer_as_declared(schema, method: str, url: str, response, status: int) -> None:
    declared = operation_for(schema, method, url)["responses"]
    assert str(status) in declared and response.status_code == status, response.content
    media = response["Content-Type"].split(";")[0]
    assert media in declared[str(status)]["content"], media
    validator_for(schema, declared[str(status)]["content"][media]["schema"]).validate(response.json())


def test_entering_one_player_answers_the_entry_and_many_answer_a_list_as_declared(schema, demo):
    tournament = TournamentFactory(slug="contract-entries")
    organiser = OfficialFactory(tournament=tournament, role=OfficialRole.ORGANISER).user
    client = Client()
    client.force_login(organiser)
    url = "/api/tournaments/contract-entries/entries/"
    one, two, three = PlayerFactory(), PlayerFactory(), PlayerFactory()
    single = client.post(url, {"player": one.pk}, content_type="application/json")
    assert_answer_as_declared(schema, "post", url, single, 201)
    assert isinstance(single.json(), dict) and single.json()["player"] == one.pk
    many = client.post(url, [{"player": two.pk}, {"player": three.pk}], content_type="application/json")
    assert_answer_as_declared(schema, "post", url, many, 201)
    assert [entry["player"] for entry in many.json()] == [two.pk, three.pk]


def test_the_webhook_delivery_log_is_a_page_that_honours_page_size(schema, db):
    tournament = TournamentFactory(slug="contract-hooks")
    organiser = OfficialFactory(tournament=tournament, role=OfficialRole.ORGANISER).user
    sub = WebhookSubscription.objects.create(tournament=tournament, url="https://example.org/h", secret="s" * 40,
                                             created_by=organiser)  # fmt: skip
    for n in range(3):
        sub.deliveries.create(event="ping", event_id=f"e{n}", payload={})
    client = Client()
    client.force_login(organiser)
    url = f"/api/tournaments/contract-hooks/webhooks/{sub.pk}/deliveries/"
    page = client.get(url, {"page_size": 2})
    assert_answer_as_declared(schema, "get", url, page, 200)
    assert page.json()["count"] == 3 and len(page.json()["results"]) == 2 and page.json()["next"]
    assert 'rel="next"' in page["Link"]


def test_the_rating_list_takes_a_blank_city_as_its_schema_allows(schema, demo):
    city = next(p for p in operation_for(schema, "get", "/api/ratings/")["parameters"] if p["name"] == "city")
    assert city["schema"].get("minLength", 0) == 0 or "default" not in city["schema"]
    answer = Client().get("/api/ratings/", {"city": ""})
    assert_answer_as_declared(schema, "get", "/api/ratings/", answer, 200)


def test_the_match_resource_is_described_for_integrators_and_says_round_is_a_number_and_round_id_the_id(schema):
    match = schema["components"]["schemas"]["Match"]
    assert "Mix in" not in match["description"] and "result" in match["description"]
    assert "NUMBER" in match["properties"]["round"]["description"]
    assert "round_id" in match["properties"]["round"]["description"]
    assert match["properties"]["round_id"]["type"] == "integer" and "/api/rounds/{id}/" in match["properties"]["round_id"]["description"]


#: Words of code talk that mean a description was written for the code's readers, not an integrator's.
CODE_TALK = re.compile(r":(func|mod|class|meth):|queryset|Narrows|the route says|^``/api/|\bMix in\b|docstring")


def test_every_operation_is_described_for_integrators_not_with_the_codes_own_notes(schema):
    """Issue 28: descriptions came from code docstrings (``Narrows the queryset to the tournament of
    the nested route``). Every operation says what it does, in words an integrator reads."""
    missing, code_talk = [], []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in METHODS or path.endswith("/download/") or path == "/api/schema/":
                continue
            description = operation.get("description", "")
            if len(description) < 20:
                missing.append(f"{method.upper()} {path}")
            elif CODE_TALK.search(description):
                code_talk.append(f"{method.upper()} {path}: {description[:80]}")
    for name, component in schema["components"]["schemas"].items():
        if CODE_TALK.search(component.get("description", "")):
            code_talk.append(f"component {name}: {component['description'][:80]}")
    assert not missing, missing
    assert not code_talk, code_talk


def test_the_schema_generates_without_a_warning(tmp_path):
    """A generator warning is a schema that lies (two components named ``Problem``: one wins, the other
    operation's answer is described wrongly)."""
    from django.core.management import call_command

    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
