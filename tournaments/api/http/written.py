"""``Location`` and ``ETag`` on a successful write under ``/api/``: where the resource is, and its tag.

A 201 whose body names the new resource (its ``slug`` or ``id``) under the
collection it was posted to gets ``Location`` when that address is a route
(``POST /api/tournaments/`` → ``/api/tournaments/<slug>/``; an action such as
``report/`` answers a result that has no address of its own, so none). A 201
with a ``Location`` and a 200 of PUT/PATCH get the ``ETag`` a GET of the
resource answers now (:func:`etags.current_etag`), so a client can send it back
in ``If-Match`` without reading the resource again.
"""

from __future__ import annotations

import json

from django.urls import Resolver404, resolve

from .etags import current_etag
from .language import is_api


def _location(request, response) -> str | None:
    if response.get("Content-Type", "").split(";")[0] != "application/json":
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    for key in ("slug", "id"):
        value = body.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
            candidate = f"{request.path}{value}/"
            try:
                resolve(candidate)
            except Resolver404:
                continue
            return candidate
    return None


class WrittenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not is_api(request) or getattr(response, "streaming", False):
            return response
        if request.method == "POST" and response.status_code == 201:
            if not response.has_header("Location"):
                location = _location(request, response)
                if location:
                    response["Location"] = location
            if response.has_header("Location") and not response.has_header("ETag"):
                tag = current_etag(request, response["Location"])
                if tag:
                    response["ETag"] = tag
        elif request.method in ("PUT", "PATCH") and response.status_code == 200 and not response.has_header("ETag"):
            tag = current_etag(request)
            if tag:
                response["ETag"] = tag
        return response
