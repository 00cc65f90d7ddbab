"""Coded refusals of the rounds API, as problem details (RFC 9457) like every API error.

The pages show the same catalogue problems as form errors; the API answers them
through :class:`tournaments.api.http.errors.ApiProblem` — one error format for the
whole API — in the request's language, with the first problem's code and every
problem under ``problems``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rest_framework.exceptions import ValidationError

from scoring.rules.errors import Problem
from zarik.i18n import current_language

from .errors import form_errors
from .http.errors import ApiProblem


def problems_response(problems: Sequence[Problem], status: int = 409):
    """Refuse with ``problems`` (the first names the refusal); raises, so ``return`` reads well."""
    lang = current_language()
    raise ApiProblem(status, problems[0], problems=[{"code": p.code, "message": p.message(lang)} for p in problems])


def form_errors_response(form):
    """A Django form's errors as field errors (400, the form's field names kept); raises."""
    raise ValidationError(form_errors(form))
