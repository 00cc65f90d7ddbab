"""How the setup API answers a refusal: field errors of the pages' forms, or a coded 409."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import ValidationError

from ..apihttp.errors import ApiProblem


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


def raise_form_errors(form, prefix: str | None = None) -> None:
    errors = form_errors(form)
    raise ValidationError({prefix: errors} if prefix else errors)
