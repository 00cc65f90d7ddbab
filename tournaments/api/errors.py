"""How the setup API answers a refusal: field errors of the pages' forms, or a coded 409."""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework import status
from rest_framework.exceptions import ErrorDetail, ValidationError

from .http.errors import ApiProblem
from .http.problems import api_problem

#: How a body that is not an object is named in the refusal (JSON's words).
JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}


class Refused(ApiProblem):
    """The rules forbid the change in the current state: a 409 problem with the catalogue's code."""

    def __init__(self, problem):
        super().__init__(status.HTTP_409_CONFLICT, problem)


def form_errors(form) -> dict:
    """A bound, invalid Django form's errors keyed by field name (``non_field_errors`` for the rest)."""
    out = {}
    for field, errors in form.errors.get_json_data().items():
        key = "non_field_errors" if field == "__all__" else field
        out[key] = [e["message"] for e in errors]
    return out


def coded_form_errors(form) -> dict:
    """:func:`form_errors` with each message's code kept (``setup.locked_after_round_one``, …),
    so the problem answers the catalogue's code where the form gave one."""
    out = {}
    for field, errors in form.errors.as_data().items():
        key = "non_field_errors" if field == "__all__" else field
        out[key] = [
            ErrorDetail(message, code=error.code or "invalid")
            for error in errors
            for message in error.messages
        ]
    return out


def raise_form_errors(form, prefix: str | None = None) -> None:
    errors = coded_form_errors(form)
    raise ValidationError({prefix: errors} if prefix else errors)


def object_body(data) -> Mapping:
    """The request body as a mapping of fields, or a 400 problem saying what came instead.

    Forms and ``dict(...)`` need field → value; a JSON array or a bare value would
    otherwise fail deep in a view as a server error.
    """
    if isinstance(data, Mapping):
        return data
    kind = JSON_KINDS.get(type(data), "null" if data is None else type(data).__name__)
    raise ApiProblem(status.HTTP_400_BAD_REQUEST, api_problem("body_not_object", kind=kind))
