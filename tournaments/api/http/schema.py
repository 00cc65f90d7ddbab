"""What the OpenAPI schema promises about errors: one problem shape, declared on every operation.

Every refusal of the API is an RFC 9457 problem (:mod:`.errors`) in
``application/problem+json``; :func:`declare_problems` is a drf-spectacular
postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``) that
writes that promise into the schema, so no view has to repeat it: the
``ProblemDetails`` component, and each operation's 4xx answers from
:data:`PROBLEM_STATUSES` (one table, by method). A status a view declares itself
keeps its description but gets the problem media type and schema, since the
exception handler answers every error that way whatever the view said.

RFC 9457 section 3 (the members ``type``, ``title``, ``status``, ``detail``,
``instance``; extension members allowed) and section 8.1 (the media type).
"""

from __future__ import annotations

from typing import Any

from .errors import PROBLEM_CONTENT_TYPE

REF = "#/components/schemas/ProblemDetails"

#: The body of every error answer (RFC 9457 members plus ours: ``code``, ``errors``, ``problems``).
PROBLEM_DETAILS: dict[str, Any] = {
    "type": "object",
    "description": (
        "An RFC 9457 problem. `code` is stable and machine-readable (`api.*` for HTTP-level refusals, "
        "`workflow.*`, `entry.*`, `pairing.*`, `setup.*` … for the rules); `detail` is the message in the "
        "request's language (Accept-Language or ?lang=). Invalid fields are listed under `errors` "
        "(field → messages); a refusal of the rules lists every reason under `problems`."
    ),
    "properties": {
        "type": {"type": "string", "description": "urn:zarik:problem:<code>", "example": "urn:zarik:problem:api.invalid"},
        "title": {"type": "string", "description": "the status in words, in the request's language"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string", "description": "what went wrong and what to do, in the request's language"},
        "code": {"type": "string", "example": "workflow.stale"},
        "instance": {"type": "string", "description": "the path and query of the refused request"},
        "errors": {
            "type": "object",
            "description": "invalid fields: field name (dotted for nested ones) → messages",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "problems": {
            "type": "array",
            "description": "every reason of a refusal of the rules; the first one is `code`",
            "items": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "game": {"type": "integer", "nullable": True, "description": "the game a result's problem is about"},
                },
                "required": ["code", "message"],
            },
        },
    },
    "required": ["type", "title", "status", "detail", "code", "instance"],
}

#: The 4xx answers every operation declares, by method: the row is what any endpoint may answer.
#: 401/403 (token or permission), 404 (the resource, or a page past the last), 429 (throttling)
#: everywhere; 400 where a body or a query is read; 409 where the rules can refuse a change;
#: 412 where ``If-Match`` is honoured; 415 where a body is parsed; 422 for a reused ``Idempotency-Key``.
PROBLEM_STATUSES: dict[str, dict[str, str]] = {
    "get": {
        "400": "A query parameter is invalid.",
        "401": "No credentials, or they were not accepted.",
        "403": "The caller may not see this.",
        "404": "No such resource (or page), or it is not visible to the caller.",
        "429": "Too many requests; see Retry-After.",
    },
    "post": {
        "400": "The body is invalid: `errors` names each field (unknown fields included).",
        "401": "No credentials, or they were not accepted.",
        "403": "The caller may not do this (or the token is read-only).",
        "404": "No such resource, or it is not visible to the caller.",
        "409": "The rules refuse it in the current state (or the version is stale): see `code` and `problems`.",
        "415": "The body is not JSON (the API takes JSON only; the entries import takes multipart/form-data).",
        "422": "This Idempotency-Key was used for a different request.",
        "429": "Too many requests; see Retry-After.",
    },
    "put": {
        "400": "The body is invalid: `errors` names each field (unknown fields included).",
        "401": "No credentials, or they were not accepted.",
        "403": "The caller may not do this (or the token is read-only).",
        "404": "No such resource, or it is not visible to the caller.",
        "409": "The rules refuse it in the current state: see `code` and `problems`.",
        "412": "If-Match does not match: the resource changed since it was read.",
        "415": "The body is not JSON (the API takes JSON only; the entries import takes multipart/form-data).",
        "429": "Too many requests; see Retry-After.",
    },
    "delete": {
        "401": "No credentials, or they were not accepted.",
        "403": "The caller may not do this (or the token is read-only).",
        "404": "No such resource, or it is not visible to the caller.",
        "409": "The rules refuse it in the current state: see `code` and `problems`.",
        "412": "If-Match does not match: the resource changed since it was read.",
        "429": "Too many requests; see Retry-After.",
    },
}
PROBLEM_STATUSES["patch"] = PROBLEM_STATUSES["put"]
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def problem_answer(description: str) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": REF}}}}


#: The headers a successful answer carries (``etags``, ``written``), declared once for every operation.
ETAG_HEADER = {"description": "the resource's strong ETag now: send it back in If-Match (If-None-Match on a GET)",
               "schema": {"type": "string"}}
WRITTEN_HEADERS = {
    "Location": {"description": "where the resource this answer is about can be read: the one created, else "
                 "the one written to (absent from a check that writes nothing)", "schema": {"type": "string"}},
    "ETag": ETAG_HEADER,
}
CONTENT_LOCATION = {"description": "the same address as Location: the resource this answer represents",
                    "schema": {"type": "string"}}
WRITES = ("post", "put", "patch", "delete")


#: The request headers every operation honours, by method (``language``, ``etags``, ``idempotency``).
REQUEST_HEADERS: dict[str, list[dict[str, Any]]] = {
    "*": [{"name": "Accept-Language", "in": "header", "required": False, "schema": {"type": "string", "example": "en"},
           "description": "the language of every message: `ru` (the default) or `en`; `?lang=` wins over it"}],
    "get": [{"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "an ETag you hold: 304 with no body while the resource is unchanged"}],
    "post": [{"name": "Idempotency-Key", "in": "header", "required": False,
              "schema": {"type": "string", "maxLength": 255},
              "description": "any unique string: a retry with the same key and request replays the stored answer "
              "(`Idempotent-Replayed: true`); the same key with another request is 422; kept 24 hours"}],
    "put": [{"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "the ETag you read: 412 and nothing changed if the resource has changed since"}],
}
REQUEST_HEADERS["patch"] = REQUEST_HEADERS["delete"] = REQUEST_HEADERS["put"]

#: The limits on every counted answer (``throttling``: the IETF httpapi RateLimit fields, draft 10).
RATE_HEADERS = {
    "RateLimit-Policy": {"description": 'whose budget and its quota per window: `"token";q=1200;w=60`',
                         "schema": {"type": "string"}},
    "RateLimit": {"description": 'what is left of it: `"token";r=1187;t=42` (requests left, seconds until the '
                  "oldest counted one leaves the window)", "schema": {"type": "string"}},
}
EVERY_ANSWER = {
    **RATE_HEADERS,
    "Content-Language": {"description": "the language of the messages (`ru` or `en`)", "schema": {"type": "string"}},
}
LINK = {"description": "RFC 8288 links to the `first`, `prev`, `next` and `last` pages", "schema": {"type": "string"}}
REPLAYED = {"description": "`true` when this is the stored answer of an earlier request with the same "
            "Idempotency-Key", "schema": {"type": "string", "enum": ["true"]}}
RETRY_AFTER = {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}
NOT_MODIFIED = {"description": "Not modified: the ETag sent in If-None-Match is still current (no body).",
                "headers": {"ETag": ETAG_HEADER}}


def _request_headers(operation: dict[str, Any], method: str) -> None:
    parameters = operation.setdefault("parameters", [])
    have = {(p.get("in"), p.get("name")) for p in parameters}
    for header in [*REQUEST_HEADERS["*"], *REQUEST_HEADERS.get(method, [])]:
        if ("header", header["name"]) not in have:
            parameters.append(header)


def declare_headers(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every header of the API's conventions, so a client generated
    from the schema knows them (issue 47): the request headers each method honours (``Accept-Language``,
    ``If-None-Match``, ``Idempotency-Key``, ``If-Match``); ``ETag`` on every GET's 200 and a 304; ``Location``
    and ``ETag`` on every write's 200/201, ``Content-Location`` on a write's 200, ``Idempotent-Replayed`` on a
    POST's; ``Link`` on pages; ``RateLimit``/``RateLimit-Policy`` and ``Content-Language`` on every JSON answer;
    ``Retry-After`` on a 429."""
    for path, operations in result.get("paths", {}).items():
        if path.endswith("/schema/"):
            continue
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            _request_headers(operation, method)
            paged = any(p.get("name") == "page" for p in operation.get("parameters", []))
            responses = operation.get("responses", {})
            if method == "get" and "200" in responses:
                responses.setdefault("304", NOT_MODIFIED)
            for status, answer in responses.items():
                if status == "429":
                    answer.setdefault("headers", {}).update({"Retry-After": RETRY_AFTER, **RATE_HEADERS})
                if status not in ("200", "201") or "application/json" not in answer.get("content", {}):
                    continue
                headers = answer.setdefault("headers", {})
                for name, header in EVERY_ANSWER.items():
                    headers.setdefault(name, header)
                if method == "get" and status == "200":
                    headers.setdefault("ETag", ETAG_HEADER)
                    if paged:
                        headers.setdefault("Link", LINK)
                elif method in WRITES:
                    for name, header in WRITTEN_HEADERS.items():
                        headers.setdefault(name, header)
                    if status == "200":
                        headers.setdefault("Content-Location", CONTENT_LOCATION)
                    if method == "post":
                        headers.setdefault("Idempotent-Replayed", REPLAYED)
    return result


def declare_problems(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the ``ProblemDetails`` component and each operation's errors."""
    result.setdefault("components", {}).setdefault("schemas", {})["ProblemDetails"] = PROBLEM_DETAILS
    for path, operations in result.get("paths", {}).items():
        if path.endswith("/schema/"):
            continue  # the schema itself answers in OpenAPI's own media types, not problem+json
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in PROBLEM_STATUSES.get(method, {}).items():
                responses.setdefault(status, problem_answer(description))
            for status, answer in responses.items():
                if str(status)[0] in "45":
                    own = answer.get("description") or PROBLEM_STATUSES.get(method, {}).get(str(status), "")
                    responses[status] = problem_answer(own or "Refused: see `code` and `detail`.")
    return result


def _null_allowed(node: dict[str, Any]) -> dict[str, Any]:
    """One schema of OpenAPI 3.0's ``nullable: true`` in 3.1's JSON Schema words."""
    rest = {key: value for key, value in node.items() if key != "nullable"}
    if isinstance(rest.get("type"), str) and not any(k in rest for k in ("allOf", "oneOf", "anyOf", "$ref")):
        rest["type"] = [rest["type"], "null"]
        if "enum" in rest and None not in rest["enum"]:
            rest["enum"] = [*rest["enum"], None]
        return rest
    described = {key: rest.pop(key) for key in ("description", "readOnly", "writeOnly", "default") if key in rest}
    return {"oneOf": [rest, {"type": "null"}], **described}


def as_openapi_31(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook, the last one: no ``nullable`` is left anywhere (issue 47).

    drf-spectacular writes 3.1 for the serializers (``OAS_VERSION``); the parts written by hand
    (problem details, webhook payloads) say ``nullable`` as 3.0 did, which a 3.1 validator ignores
    and a strict client generator refuses. They become ``type: [t, "null"]`` or ``oneOf`` with null.
    """

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: walk(value) for key, value in node.items()}
        return _null_allowed(node) if node.get("nullable") is True else node

    return walk(result)
