"""Strong ETags on every successful GET under ``/api/``, ``If-None-Match`` → 304, ``If-Match`` → 412.

The tag is a hash of the body, so it works for any endpoint, including ones
added later, without the endpoint knowing; an endpoint polled by many (the live board) may
tag its answer itself from a version and answer the 304 before making the body. For ``If-Match`` on PUT, PATCH or
DELETE the middleware asks the same URL for its current representation (an
internal GET, as JSON, with the same credentials and language) and compares;
a mismatch never reaches the view, so no update is lost.
"""

from __future__ import annotations

import copy
import hashlib

from django.http import HttpResponseNotModified, QueryDict
from django.urls import Resolver404, resolve

from .errors import problem_response
from .language import is_api
from .problems import api_problem

UPDATES = ("PUT", "PATCH", "DELETE")


def etag_of(content: bytes) -> str:
    return '"' + hashlib.sha256(content).hexdigest()[:40] + '"'


def tags(header: str) -> list[str]:
    """The tags an ``If-None-Match`` or ``If-Match`` header names."""
    return [tag.strip() for tag in header.split(",") if tag.strip()]


def current_etag(request, path: str | None = None) -> str | None:
    """The ETag a GET of this URL (or of ``path``) would answer now, or None when there is no
    current representation."""
    try:
        match = resolve(path or request.path_info)
    except Resolver404:
        return None
    get = copy.copy(request)
    get.method = "GET"
    get.internal_read = True  # the server reading for itself: not the client's request (throttling)
    if path is not None:
        get.path = get.path_info = path
        get.GET = QueryDict()
    get.META = {
        key: value for key, value in request.META.items()
        if key not in ("HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH", "CONTENT_TYPE", "CONTENT_LENGTH")
    }
    get.META.update(REQUEST_METHOD="GET", HTTP_ACCEPT="application/json")
    response = match.func(get, *match.args, **match.kwargs)
    if hasattr(response, "render") and callable(response.render):
        response = response.render()
    if response.status_code != 200 or getattr(response, "streaming", False):
        return None
    return response["ETag"] if response.has_header("ETag") else etag_of(response.content)


class ETagMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_api(request):
            return self.get_response(request)
        if_match = request.META.get("HTTP_IF_MATCH")
        if request.method in UPDATES and if_match:
            current = current_etag(request)
            named = tags(if_match)
            if current is None or not ("*" in named or current in named):
                return problem_response(request, 412, api_problem("precondition_failed"),
                                        headers={"ETag": current} if current else None)
        response = self.get_response(request)
        if request.method in ("GET", "HEAD") and response.status_code == 200 and not response.streaming:
            # A view that tags its answer itself (by a version, checked before the answer is
            # made: the live board) keeps its tag; any other answer is tagged by its body.
            etag = response["ETag"] if response.has_header("ETag") else etag_of(response.content)
            response["ETag"] = etag
            if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
            if if_none_match and (etag in tags(if_none_match) or if_none_match.strip() == "*"):
                not_modified = HttpResponseNotModified()
                for header in ("ETag", "Vary", "Content-Language", "Cache-Control"):
                    if header in response:
                        not_modified[header] = response[header]
                return not_modified
        return response
