"""Coded problems as API answers: ``{"code", "message", "errors": [{"code", "message"}]}``.

The pages show the same catalogue problems as form errors; the API answers
them in the request's language (Accept-Language) with their codes, so an
integrator can branch on the code and show the message.
"""

from __future__ import annotations

from collections.abc import Sequence

from rest_framework import serializers
from rest_framework.response import Response

from scoring.rules.errors import Problem
from zarik.i18n import current_language


class ProblemOutSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class RefusalSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    errors = ProblemOutSerializer(many=True)


def problems_response(problems: Sequence[Problem], status: int = 409) -> Response:
    """The refusal as an HTTP answer; the first problem names it."""
    lang = current_language()
    errors = [{"code": p.code, "message": p.message(lang)} for p in problems]
    first = errors[0] if errors else {"code": "refused", "message": ""}
    return Response({**first, "errors": errors}, status=status)


def form_errors_response(form) -> Response:
    """A Django form's errors as DRF's field errors (400), the form's field names kept."""
    data = {
        (name if name != "__all__" else "non_field_errors"): [e["message"] for e in errs]
        for name, errs in form.errors.get_json_data().items()
    }
    return Response(data, status=400)
