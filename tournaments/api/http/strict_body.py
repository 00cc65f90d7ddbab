"""Unknown fields in a request body are refused, on every write endpoint, before its view runs.

Issue 28: ``{"match_lenght": 3}`` created a tournament to 7 without a word. The
fields an operation takes are the ones its OpenAPI request body declares (the
schema is the contract: :func:`declared_shape` asks the operation's drf-spectacular
``AutoSchema`` for its request serializer, on a view made as the schema
generator makes one). Any other key of a JSON body — at the top level, in each
object of an array body, or inside a nested object the serializer declares —
answers 400 with ``errors`` naming each unknown field (``api.unknown_field``,
with the nearest declared name when one is close) and nothing is done. A field the
operation's serializer declares read-only (shown, never taken: ``club`` once a
tournament exists) is refused the same way with its own words (``api.read_only_fields``),
never accepted and ignored (issue 45).

One mechanism for every endpoint, including ones added later and ones that never
read their body (``publish/``): :class:`StrictBodyMiddleware`'s ``process_view``,
which sees the view it is about to call. (A DRF parser would only run for views
that read ``request.data``, and drf-spectacular's generator cannot be imported by
a parser: DRF imports its parsers while defining ``APIView``.)
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers
from rest_framework.utils.mediatypes import media_type_matches

from zarik.i18n import current_language

from .errors import problem_response
from .language import is_api
from .problems import api_problem

#: The methods whose body OpenAPI documents (drf-spectacular declares none for DELETE).
BODY_METHODS = ("POST", "PUT", "PATCH")

#: An endpoint that declares no request body takes no fields.
NO_FIELDS: dict[str, Any] = {}

#: A field the operation shows but does not take (``club`` in a PATCH of a tournament): refused
#: with its own message, so a client learns it cannot be changed rather than that it does not exist.
READ_ONLY = "read-only"


def _writable(serializer: serializers.Serializer) -> dict[str, Any]:
    """Field name → its nested shape (a dict for a nested object, ``None`` for a plain value)."""
    out: dict[str, Any] = {}
    for name, field in serializer.fields.items():
        if field.read_only:
            out[name] = READ_ONLY
            continue
        if isinstance(field, serializers.ListSerializer):
            field = field.child
        elif isinstance(field, serializers.ListField) and isinstance(field.child, serializers.Serializer):
            field = field.child
        out[name] = _writable(field) if isinstance(field, serializers.Serializer) else None
    return out


_shapes: dict[tuple, dict[str, Any] | None] = {}


def declared_shape(view_func, method: str) -> dict[str, Any] | None:
    """The fields the operation (a DRF view function and a method) declares for its body
    (``None``: not checked — a body that is not a serializer's, such as a file upload),
    worked out once per operation."""
    key = (view_func, method)
    if key not in _shapes:
        _shapes[key] = _build_shape(view_func, method)
    return _shapes[key]


def _build_shape(view_func, method: str) -> dict[str, Any] | None:
    """Ask the operation's schema (drf-spectacular's ``AutoSchema``, with any ``@extend_schema``
    of the action) for its request serializer, on a view made the way the schema generator
    makes one (no request, ``swagger_fake_view``): the answer is the schema's, and no view
    code runs against the live request."""
    initkwargs = getattr(view_func, "initkwargs", {})
    view = view_func.cls(**initkwargs)
    view.args, view.kwargs, view.format_kwarg, view.request = (), {}, None, None
    view.swagger_fake_view = True
    action = (getattr(view_func, "actions", None) or {}).get(method.lower())
    if action is not None:
        view.action = action
    handler = getattr(view, action or method.lower(), None)
    if handler is None or method.lower() not in view.http_method_names:
        # a method the view does not serve: the view itself answers 405
        return None
    override = getattr(handler, "kwargs", {}).get("schema") or view.schema
    schema = override() if isinstance(override, type) else override
    schema.view = view
    schema.method = method
    declared = schema.get_request_serializer()
    if isinstance(declared, type):
        declared = declared()
    if declared is None:
        return NO_FIELDS
    if isinstance(declared, PolymorphicProxySerializer):  # "one or many" bodies: every variant's fields
        variants = declared.serializers.values() if isinstance(declared.serializers, Mapping) else declared.serializers
        shape: dict[str, Any] = {}
        for variant in variants:
            variant = variant() if isinstance(variant, type) else variant
            variant = variant.child if isinstance(variant, serializers.ListSerializer) else variant
            if not isinstance(variant, serializers.Serializer):
                return None
            shape.update(_writable(variant))
        return shape
    if isinstance(declared, serializers.ListSerializer):
        declared = declared.child
    if not isinstance(declared, serializers.Serializer):
        return None
    return _writable(declared)


def unknown_fields(data: Any, shape: dict[str, Any], prefix: str = "") -> dict[str, str | None]:
    """Path (``games.0.colour``) → the nearest declared name (``None``: nothing close) of each
    key in ``data`` that ``shape`` does not take; :data:`READ_ONLY` for a field it only shows."""
    if isinstance(data, list):
        return {p: n for i, item in enumerate(data) for p, n in unknown_fields(item, shape, f"{prefix}{i}.").items()}
    if not isinstance(data, Mapping):
        return {}
    out: dict[str, str | None] = {}
    for key, value in data.items():
        if key not in shape:
            takes = [name for name, kind in shape.items() if kind != READ_ONLY]
            near = difflib.get_close_matches(str(key), takes, n=1, cutoff=0.75)
            out[f"{prefix}{key}"] = near[0] if near else None
        elif shape[key] == READ_ONLY:
            out[f"{prefix}{key}"] = READ_ONLY
        elif shape[key] is not None:
            out.update(unknown_fields(value, shape[key], f"{prefix}{key}."))
    return out


def _message(shape: dict[str, Any], near: str | None, language: str) -> str:
    if near == READ_ONLY:
        return api_problem("read_only_field").message(language)
    if not shape:
        return api_problem("no_body_expected").message(language)
    if near:
        return api_problem("unknown_field_near", near=near).message(language)
    return api_problem("unknown_field").message(language)


def _body_fields(request) -> Any:
    """The JSON body's data to check (``None``: nothing to check). The API takes JSON only (a file
    upload takes multipart and declares no serializer; any other media type is the view's 415)."""
    body = request.body
    if not body:
        return None
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None  # DRF's parser answers in its own words (parsers.BoundedJSONParser: too deep)


#: Form media types: an empty one is no body at all.
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _unsupported(request, view_func) -> JsonResponse | None:
    """A body in a media type the operation's parsers do not take is a 415 problem here, before the
    view: a form the site's NUL check has already parsed would otherwise reach DRF as empty data."""
    if not request.content_type or not request.META.get("CONTENT_LENGTH", "0").strip("0"):
        return None
    parsers = getattr(view_func, "initkwargs", {}).get("parser_classes") or view_func.cls.parser_classes
    if any(media_type_matches(parser.media_type, request.content_type) for parser in parsers):
        return None
    if request.content_type in FORM_TYPES and not request.POST and not request.FILES:
        return None  # an empty form (``curl -d ''``, a bare form POST) carries nothing to lose
    problem = api_problem("unsupported_media_type", media_type=request.content_type)
    return problem_response(request, 415, problem)


class StrictBodyMiddleware:
    """Checks the JSON body of POST, PUT and PATCH under ``/api/`` against the called operation."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method not in BODY_METHODS or not is_api(request) or not hasattr(view_func, "cls"):
            return None
        if request.content_type != "application/json":
            return _unsupported(request, view_func)
        shape = declared_shape(view_func, request.method)
        if shape is None:  # a file upload, or a method the view answers with 405
            return None
        try:
            data = _body_fields(request)
        except RequestDataTooBig:
            return None  # the view answers it: 413 api.body_too_large (errors.exception_handler)
        unknown = unknown_fields(data, shape) if data is not None else {}
        if not unknown:
            return None
        language = current_language()
        errors = {path: [_message(shape, near, language)] for path, near in unknown.items()}
        kind = "read_only_fields" if all(near == READ_ONLY for near in unknown.values()) else "unknown_fields"
        problem = api_problem(kind, fields=", ".join(unknown))
        return problem_response(request, 400, problem, errors=errors)
