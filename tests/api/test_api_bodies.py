"""Issue 28, bodies: unknown fields are refused naming them, cross-field rules are problems, never a 500."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tournaments.api.http.strict_body import READ_ONLY, declared_shape
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import TokenScope, Tournament

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


@pytest.fixture
def organiser():
    club = ClubFactory(slug="zarik")
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "bodies", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


def _send(http, method, url, body):
    return getattr(http, method)(url, body, content_type="application/json")


def _event_with_rounds(http, rounds: int = 2) -> str:
    """A released Swiss of 4 with ``rounds`` rounds paired and published."""
    assert _send(http, "post", "/api/tournaments/", {
        "club": "zarik", "name": "Bodies", "slug": "bodies", "starts_on": "2026-05-01",
        "system": "swiss", "rounds_planned": 3, "match_length": 5, "seeding": "registration", "public": True,
    }).status_code == 201  # fmt: skip
    players = [{"last_name": f"Игрок{i}", "last_name_latin": f"Igrok{i}", "category": 5} for i in range(4)]
    assert _send(http, "post", "/api/tournaments/bodies/entries/", players).status_code == 201
    for _ in range(rounds):
        answer = _send(http, "post", "/api/tournaments/bodies/generate/", {})
        assert answer.status_code == 201, answer.content
        [rnd] = answer.json()["rounds"]
        assert _send(http, "post", f"/api/rounds/{rnd['id']}/publish/", None).status_code == 200
        for pairing in rnd["pairings"]:
            url = f"/api/matches/{pairing['match']}/report/"
            body = {"final": [5, 1], "version": pairing["version"], "confirm": True}
            assert _send(http, "post", url, body).status_code == 201
    return "bodies"


def test_a_system_and_length_change_after_round_one_is_a_400_problem_naming_the_system_not_a_500(organiser):
    slug = _event_with_rounds(organiser)
    answer = _send(organiser, "patch", f"/api/tournaments/{slug}/", {"match_length": 3, "system": "knockout"})
    assert answer.status_code == 400 and answer["Content-Type"] == PROBLEM
    body = answer.json()
    assert body["code"] == "setup.locked_after_round_one" and "system" in body["errors"]
    assert Tournament.objects.get(slug=slug).system == "swiss"


def test_rounds_planned_below_the_rounds_already_paired_is_refused_on_the_field(organiser):
    slug = _event_with_rounds(organiser)
    answer = _send(organiser, "patch", f"/api/tournaments/{slug}/", {"rounds_planned": 1})
    assert answer.status_code == 400 and answer.json()["code"] == "setup.rounds_below_paired"
    assert answer.json()["errors"]["rounds_planned"] == ["2 rounds are already paired; plan at least 2 (not 1)."]
    assert Tournament.objects.get(slug=slug).rounds_planned == 3
    assert _send(organiser, "patch", f"/api/tournaments/{slug}/", {"rounds_planned": 2}).status_code == 200


def test_a_misspelt_field_is_refused_with_the_name_it_was_meant_to_be_and_nothing_is_created(organiser):
    answer = _send(organiser, "post", "/api/tournaments/", {
        "club": "zarik", "name": "Typo", "starts_on": "2026-05-01", "match_lenght": 3,
    })  # fmt: skip
    assert answer.status_code == 400 and answer["Content-Type"] == PROBLEM
    assert answer.json()["code"] == "api.unknown_fields"
    assert answer.json()["errors"] == {"match_lenght": ["Unknown field; did you mean “match_length”?"]}
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("encode", ["urlencoded", "multipart"])
def test_a_form_body_is_a_415_problem_saying_the_api_takes_json_and_nothing_is_created(organiser, encode):
    """The API's write bodies are JSON (the schema declares that one media type): a form's fields would
    escape the unknown-field check and its values arrive as lists, so a form is refused, never half-read."""
    body = {"club": "zarik", "name": "Form", "slug": "form", "starts_on": "2026-05-01", "match_lenght": "3"}
    if encode == "urlencoded":
        answer = organiser.post("/api/tournaments/", urlencode(body), content_type="application/x-www-form-urlencoded")
    else:
        answer = organiser.post("/api/tournaments/", body)  # Django's test client: multipart/form-data
    assert answer.status_code == 415 and answer["Content-Type"] == PROBLEM, answer.content
    assert "application/json" in answer.json()["detail"] or answer.json()["code"] == "api.unsupported_media_type"
    assert not Tournament.objects.exists()


def test_unknown_fields_are_named_in_russian_in_arrays_and_in_nested_objects(organiser):
    slug = _event_with_rounds(organiser, rounds=0)
    players = [{"last_name": "Петров", "category": 5}, {"last_name": "Иванов", "categroy": 5}]
    answer = organiser.post(f"/api/tournaments/{slug}/entries/?lang=ru", players, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"1.categroy": ["Неизвестное поле; возможно, имелось в виду «category»?"]}
    rnd = _send(organiser, "post", f"/api/tournaments/{slug}/generate/", {}).json()["rounds"][0]
    _send(organiser, "post", f"/api/rounds/{rnd['id']}/publish/", None)
    match = rnd["pairings"][0]
    games = {"games": [{"winner": "a", "kind": "oyun", "colour": "white"}]}
    answer = _send(organiser, "post", f"/api/matches/{match['match']}/check/", games)
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["games.0.colour"]
    answer = _send(organiser, "post", f"/api/rounds/{rnd['id']}/publish/", {"force": True})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"force": ["Unknown field: this operation takes no fields."]}


def _sample_path(template: str) -> str:
    """A concrete address for a schema path: digits for ids, a word for slugs."""
    out = template
    while "{" in out:
        start, end = out.index("{"), out.index("}")
        name = out[start + 1:end]
        out = out[:start] + ("x" if "slug" in name else "1") + out[end + 1:]
    return out


def _declared(schema: dict, body: dict) -> set[str]:
    content = body["content"].get("application/json") or next(iter(body["content"].values()))
    return _fields(schema, content["schema"])


def _fields(schema: dict, node: dict) -> set[str]:
    """The writable fields of a body schema: an object, an array of them, or one of several (one or many)."""
    if "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if node.get("type") == "array":
        return _fields(schema, node["items"])
    if "oneOf" in node:
        return set().union(*(_fields(schema, variant) for variant in node["oneOf"]))
    return {name for name, prop in node.get("properties", {}).items() if not prop.get("readOnly")}


def test_the_unknown_field_check_takes_exactly_the_fields_the_schema_declares_on_every_write_operation():
    """One mechanism for every endpoint: for each POST/PUT/PATCH of the schema, the parser's
    check accepts the request body's declared fields and nothing else."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    checked = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch"):
                continue
            shape = declared_shape(resolve(_sample_path(path)).func, method.upper())
            if shape is None:  # a file upload: not a serializer's fields
                continue
            declared = _declared(schema, operation["requestBody"]) if "requestBody" in operation else set()
            takes = {name for name, kind in shape.items() if kind != READ_ONLY}  # read-only: refused by name
            assert takes == declared, (method, path)
            checked += 1
    assert checked > 40


def test_generate_before_the_open_draw_says_how_to_hold_it_over_the_api(organiser):
    _send(organiser, "post", "/api/tournaments/", {
        "club": "zarik", "name": "Drawn", "slug": "drawn", "starts_on": "2026-05-01", "system": "swiss",
    })  # fmt: skip
    players = [{"last_name": f"Игрок{i}", "category": 5} for i in range(4)]
    _send(organiser, "post", "/api/tournaments/drawn/entries/", players)
    answer = _send(organiser, "post", "/api/tournaments/drawn/generate/", {})
    assert answer.status_code == 409 and answer.json()["code"] == "pairing.draw_required"
    [how] = [p["message"] for p in answer.json()["problems"] if p["code"] == "api.draw_over_api"]
    assert "POST /api/tournaments/drawn/draw/commit/" in how and "/api/tournaments/drawn/draw/perform/" in how
    assert _send(organiser, "post", "/api/tournaments/drawn/draw/commit/", None).status_code == 200
    assert _send(organiser, "post", "/api/tournaments/drawn/draw/perform/", None).status_code == 200
    assert _send(organiser, "post", "/api/tournaments/drawn/generate/", {}).status_code == 201


def test_drfs_own_messages_come_in_russian_where_drf_has_no_translation_and_no_decimal_leaks(organiser):
    slug = _event_with_rounds(organiser, rounds=1)
    match = Tournament.objects.get(slug=slug).rounds.get().matches.first()
    answer = organiser.post(f"/api/matches/{match.pk}/check/?lang=ru", {"final": [5, 1, 2]},
                            content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["errors"]["final"] == ["Убедитесь, что в этом поле не больше 2 элементов."]
    answer = organiser.post(f"/api/matches/{match.pk}/check/?lang=ru", {"final": [9.5, 1]},
                            content_type="application/json")
    [refusal] = answer.json()["errors"]
    assert "Decimal" not in refusal["message"] and "9,5:1" in refusal["message"]


def test_a_write_method_an_operation_does_not_serve_is_a_405_problem_on_every_path(organiser):
    """Schemathesis's finding: a PUT with a body to a POST-only action (``/api/matches/0/check/``)
    reached the unknown-field check, which asked the schema of a handler that does not exist,
    and answered 500. The method an operation does not serve is the view's 405, on every path."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    tried = 0
    for path, operations in schema["paths"].items():
        for method in ("put", "patch", "post"):
            if method in operations:
                continue
            answer = _send(organiser, method, _sample_path(path), {"fuzzed": 1})
            # 405, or 404 where the view looks the resource up first (these sample ids do not exist)
            assert answer.status_code in (404, 405), (method, path, answer.status_code, answer.content[:200])
            assert answer["Content-Type"] == PROBLEM, (method, path, answer["Content-Type"])
            assert answer.json()["code"] in ("api.method_not_allowed", "api.not_found")
            tried += 1
    assert tried > 40
