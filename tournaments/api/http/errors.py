"""RFC 9457 problem details for every error of the API, in the request's language.

One body shape for all: ``type``, ``title``, ``status``, ``detail``, ``code``
(the catalogue's code: ``workflow.*``, ``entry.*``, … where the refusal has
one, else ``api.<kind>``), ``instance`` and, for invalid fields, ``errors``
(field → messages). :func:`exception_handler` is DRF's ``EXCEPTION_HANDLER``;
:func:`problem_response` serves middleware that answers before any view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import set_rollback

from scoring.rules.errors import Catalogue, Problem, is_catalogued
from zarik.i18n import current_language

from .problems import API, api_problem

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:zarik:problem:"

#: The short title of each status, in both languages (``http.<status>``); other statuses use the HTTP phrase.
TITLES = Catalogue(
    "http",
    {
        "400": ("Bad request", "Неверный запрос"),
        "401": ("Authentication required", "Нужна аутентификация"),
        "403": ("Forbidden", "Доступ запрещён"),
        "404": ("Not found", "Не найдено"),
        "405": ("Method not allowed", "Метод не разрешён"),
        "406": ("Not acceptable", "Формат не поддерживается"),
        "409": ("Conflict", "Конфликт"),
        "412": ("Precondition failed", "Условие запроса не выполнено"),
        "413": ("Content too large", "Слишком большой запрос"),
        "415": ("Unsupported media type", "Тип данных не поддерживается"),
        "422": ("Unprocessable request", "Запрос не может быть выполнен"),
        "429": ("Too many requests", "Слишком много запросов"),
        "500": ("Server error", "Ошибка сервера"),
        "503": ("Service unavailable", "Сервис временно недоступен"),
    },
)


class ApiProblem(exceptions.APIException):
    """Raise from any API view to answer with a coded problem (any catalogue) and this status."""

    def __init__(
        self, status: int, problem: Problem, names: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None, **extra: Any,
    ) -> None:
        self.status_code = status
        self.problem = problem
        self.extra = extra
        self.headers = dict(headers or {})
        super().__init__(detail=problem.message(current_language(), names), code=problem.code)


def title_for(status: int) -> str:
    if str(status) in TITLES:
        return Problem(TITLES.code(str(status))).message(current_language())
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return str(status)


def problem_body(
    instance: str, status: int, code: str, detail: str, **extra: Any
) -> dict[str, Any]:
    """The RFC 9457 body; ``extra`` members (``errors``, ``problems``, …) are added as they are."""
    body = {
        "type": TYPE_PREFIX + code,
        "title": title_for(status),
        "status": status,
        "detail": detail,
        "code": code,
        "instance": instance,
    }
    body.update(extra)
    return body


def problem_response(request, status: int, problem: Problem, headers=None, **extra: Any) -> JsonResponse:
    """A problem answer built outside DRF (middleware), already in ``application/problem+json``."""
    body = problem_body(request.get_full_path(), status, problem.code, problem.message(current_language()), **extra)
    response = JsonResponse(body, status=status, content_type=PROBLEM_CONTENT_TYPE,
                            json_dumps_params={"ensure_ascii": False})
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as ``{"field.sub.0": [messages]}``; non-field ones under ``non_field_errors``."""
    out: dict[str, list[str]] = {}

    def add(key: str, value: Any) -> None:
        out.setdefault(key or "non_field_errors", []).append(str(value))

    if isinstance(detail, Mapping):
        for key, value in detail.items():
            for sub, messages in flatten_errors(value, f"{prefix}.{key}" if prefix else str(key)).items():
                out.setdefault(sub, []).extend(messages)
    elif isinstance(detail, list | tuple):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list | tuple):
                nested = flatten_errors(value, f"{prefix}.{index}" if prefix else str(index))
                for sub, messages in nested.items():
                    out.setdefault(sub, []).extend(messages)
            else:
                add(prefix, value)
    else:
        add(prefix, detail)
    return out


def _codes(codes: Any) -> list[str]:
    if isinstance(codes, Mapping):
        return [c for value in codes.values() for c in _codes(value)]
    if isinstance(codes, list | tuple):
        return [c for value in codes for c in _codes(value)]
    return [str(codes)]


#: DRF's exceptions → our ``api.*`` kind and the details its message needs. First match wins.
KINDS: list[tuple[type[exceptions.APIException], str, Any]] = [
    (exceptions.NotAuthenticated, "not_authenticated", None),
    (exceptions.AuthenticationFailed, "authentication_failed", None),
    (exceptions.PermissionDenied, "forbidden", None),
    (exceptions.NotFound, "not_found", None),
    (exceptions.MethodNotAllowed, "method_not_allowed", lambda exc, request: {"method": request.method}),
    (exceptions.NotAcceptable, "not_acceptable", None),
    (exceptions.UnsupportedMediaType, "unsupported_media_type",
     lambda exc, request: {"media_type": request.content_type or "—"}),
    (exceptions.Throttled, "throttled", lambda exc, request: {"wait": math.ceil(exc.wait or 1)}),
    (exceptions.ParseError, "parse_error", lambda exc, request: {"reason": str(exc.detail)}),
]


def _problem_of(exc: exceptions.APIException, request) -> tuple[str, str, dict[str, Any]]:
    """(code, detail, extra members) for any DRF exception."""
    language = current_language()
    if isinstance(exc, ApiProblem):
        return exc.problem.code, str(exc.detail), exc.extra
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten_errors(exc.detail)
        known = [c for c in _codes(exc.get_codes()) if is_catalogued(c)]
        code = known[0] if known else API.code("invalid")
        detail = Problem(code).message(language) if not known else next(
            (m for messages in errors.values() for m in messages), Problem(code).message(language)
        )
        return code, detail, {"errors": errors}
    own_code = exc.get_codes()
    if isinstance(own_code, str) and is_catalogued(own_code):
        return own_code, str(exc.detail), {}
    for kind_class, kind, details in KINDS:
        if isinstance(exc, kind_class):
            problem = api_problem(kind, **(details(exc, request) if details else {}))
            customised = details is None and str(exc.detail) != str(kind_class.default_detail)
            return problem.code, str(exc.detail) if customised else problem.message(language), {}
    return API.code("error"), str(exc.detail), {}


def exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: every API exception becomes a problem; others stay 500s (middleware words them)."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):  # DATA_UPLOAD_MAX_MEMORY_SIZE, checked before reading
        exc = ApiProblem(413, api_problem("body_too_large", limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 2**20))
    if not isinstance(exc, exceptions.APIException):
        return None
    request = context.get("request")
    headers = dict(getattr(exc, "headers", {}) or {})
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(math.ceil(exc.wait))
    code, detail, extra = _problem_of(exc, request)
    instance = request.get_full_path() if request is not None else ""
    set_rollback()
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is not None and getattr(renderer, "format", "") not in ("json", "api"):
        # A refusal from a view that answers in another format (the schema document's YAML) is still
        # a problem, in JSON: the schema declares problem+json for every refusal.
        request.accepted_renderer = renderer = JSONRenderer()
    as_json = renderer is None or getattr(renderer, "format", "") == "json"
    return Response(problem_body(instance, exc.status_code, code, detail, **extra), status=exc.status_code,
                    headers=headers, content_type=PROBLEM_CONTENT_TYPE if as_json else None)
