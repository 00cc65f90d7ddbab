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


def declare_headers(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: ``ETag`` on every GET's 200; ``Location`` and ``ETag`` on every
    write's 200/201, ``Content-Location`` on a write's 200 (``etags``, ``written``)."""
    for path, operations in result.get("paths", {}).items():
        if path.endswith("/schema/"):
            continue
        for method, operation in operations.items():
            for status, answer in operation.get("responses", {}).items():
                if "application/json" not in answer.get("content", {}):
                    continue
                headers = answer.setdefault("headers", {}) if status in ("200", "201") else None
                if headers is None:
                    continue
                if method == "get" and status == "200":
                    headers.setdefault("ETag", ETAG_HEADER)
                elif method in WRITES:
                    for name, header in WRITTEN_HEADERS.items():
                        headers.setdefault(name, header)
                    if status == "200":
                        headers.setdefault("Content-Location", CONTENT_LOCATION)
                if not headers:
                    answer.pop("headers")
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
