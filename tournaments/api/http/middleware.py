"""Middleware of the API's conventions; each acts only under ``/api/`` and leaves pages alone.

:class:`ApiProblemMiddleware` (outermost) speaks the request's language and
makes sure every error under ``/api/`` leaves as problem details, whoever made
it: DRF (already shaped by the exception handler), Django (an unknown URL's 404) or an unexpected exception (500).
"""

from __future__ import annotations

import logging

from django.utils import translation
from django.utils.cache import patch_vary_headers

from .errors import PROBLEM_CONTENT_TYPE, problem_response
from .language import is_api, request_language
from .problems import api_problem

logger = logging.getLogger(__name__)

#: A non-problem error answer of this status becomes this ``api.*`` problem.
STATUS_KINDS = {400: "error", 401: "not_authenticated", 403: "forbidden", 404: "not_found", 500: "server_error"}


class ApiProblemMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_api(request):
            return self.get_response(request)
        language = request_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response = self._as_problem(request, response)
        response.headers["Content-Language"] = language
        patch_vary_headers(response, ("Accept-Language",))
        return response

    def process_exception(self, request, exception):
        """An unexpected error under /api/: logged with its traceback, answered as a 500 problem."""
        if not is_api(request):
            return None
        logger.exception("API error at %s", request.path, exc_info=exception)
        return problem_response(request, 500, api_problem("server_error"))

    @staticmethod
    def _as_problem(request, response):
        if response.status_code < 400:
            return response
        if (
            response.get("Content-Type", "").startswith(PROBLEM_CONTENT_TYPE)
            or getattr(response, "accepted_renderer", None)  # DRF's (the handler shaped it; HTML if browsed)
            or response.has_header("Idempotent-Replayed")
        ):
            return response
        kind = STATUS_KINDS.get(response.status_code, "error")
        return problem_response(request, response.status_code, api_problem(kind))
