"""The database went away mid-request: a clear 503, nothing half-saved, the user's input kept.

Every write runs in a transaction, so a connection dropped in the middle rolls
the whole action back (nothing half-saved). What is left is the answer: instead
of the generic 500 page, pages get a short page in the reader's language saying
that nothing was saved, with everything they sent kept in a form that sends it
again; the API gets an ``application/problem+json`` 503 with ``Retry-After``.
The page is self-contained (no base template, no database) so it renders while
the database is still down.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.shortcuts import render

from scoring.rules.errors import Catalogue
from zarik.i18n import current_language

from .api.http.errors import problem_response

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5

SERVICE = Catalogue(
    "service",
    {
        "db_unavailable": (
            "The database did not answer, so nothing was saved. Your entry is kept below: "
            "send it again in a moment.",
            "База данных не ответила, поэтому ничего не сохранено. Введённое вами сохранено ниже: "
            "отправьте ещё раз через несколько секунд.",
        ),
        "db_unavailable_api": (
            "The database did not answer, so nothing was saved. Send the same request again "
            "in a few seconds.",
            "База данных не ответила, поэтому ничего не сохранено. Повторите тот же запрос "
            "через несколько секунд.",
        ),
    },
)

#: Fields not copied into the "send again" form (a fresh CSRF token is added).
SKIPPED = frozenset({"csrfmiddlewaretoken"})


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection in a view into a 503 that keeps what the user sent."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("database unavailable on %s %s: %s", request.method, request.path, exception)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if request.path.startswith("/api/"):
            return problem_response(request, 503, SERVICE.problem("db_unavailable_api"), headers=headers)
        fields = []
        if request.method == "POST":
            fields = [(k, v) for k, values in request.POST.lists() if k not in SKIPPED for v in values]
        response = render(
            request,
            "db_unavailable.html",
            {
                "message": SERVICE.problem("db_unavailable").message(current_language()),
                "fields": fields,
                "shown": [(k, v) for k, v in fields if v and not k.endswith(("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"))],
                "again": request.get_full_path(),
                "post": request.method == "POST",
            },
            status=503,
        )
        for name, value in headers.items():
            response[name] = value
        return response
