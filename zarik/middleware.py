"""Request hygiene shared by every page and the API."""

import logging
import re
import time
import uuid

from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext as _

from zarik.i18n import supported_language
from zarik.logs import request_id

request_logger = logging.getLogger("zarik.request")
# An id from the proxy is kept when it is plain (so one id follows the request through the
# load balancer's logs too); anything else is replaced, so logs cannot be forged through it.
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


class RequestIdMiddleware:
    """Gives every request an id: in the logs (zarik/logs.py) and the ``X-Request-ID`` header.

    It also writes one line per request to the ``zarik.request`` logger (method, path,
    status, milliseconds), so the web server's own access log can stay off.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.META.get("HTTP_X_REQUEST_ID", "")
        rid = incoming if _SAFE_ID.match(incoming) else uuid.uuid4().hex
        request.request_id = rid
        token = request_id.set(rid)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = rid
            request_logger.info(
                "%s %s %s", request.method, request.path, response.status_code,
                extra={"method": request.method, "path": request.path, "status": response.status_code,
                       "ms": round((time.perf_counter() - started) * 1000, 1)},
            )
            return response
        finally:
            request_id.reset(token)


def _bad_request(request, code: str, message: str) -> HttpResponse:
    """A 400 before any view: under ``/api/`` an RFC 9457 problem as the API documents every
    400 (``application/problem+json``), elsewhere the message as plain text."""
    if request.path.startswith("/api/"):
        body = {"type": f"urn:zarik:problem:{code}", "title": "Bad Request", "status": 400, "detail": message,
                "code": code, "instance": request.get_full_path()}  # fmt: skip
        return JsonResponse(body, status=400, content_type="application/problem+json",
                            json_dumps_params={"ensure_ascii": False})  # fmt: skip
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class RejectNulBytesMiddleware:
    """Refuse a NUL character in query or form fields with a 400, before any view runs.

    PostgreSQL text cannot hold NUL, so such a value would otherwise turn a
    harmless search into a database error (a 500) on one engine but not the
    other. No keyboard types it; uploaded files are not inspected.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        fields = [request.GET]
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            try:
                fields.append(request.POST)
            except MultiPartParserError as exc:
                message = _("The form data could not be read (%(reason)s). Send it again.") % {"reason": exc}
                return _bad_request(request, "request.unreadable_form", message)
        for data in fields:
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    message = _(
                        "The field “%(field)s” contains a NUL character, which cannot be stored. "
                        "Remove it and try again."
                    ) % {"field": key.replace("\x00", "")}
                    return _bad_request(request, "request.nul_character", message)
        return self.get_response(request)


class QueryLanguageMiddleware:
    """``?lang=ru`` or ``?lang=en`` on any page shows it in that language, for this request only,
    as the API does: a shared link can say which language it means. It does not change the
    visitor's own choice (their cookie); an unknown code is ignored. After ``LocaleMiddleware``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        asked = supported_language(request.GET.get("lang"))
        if asked:
            translation.activate(asked)
            request.LANGUAGE_CODE = asked
        return self.get_response(request)
