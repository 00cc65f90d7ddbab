"""``Location`` and ``ETag`` on every successful write under ``/api/``: where the resource is, and its tag.

One rule for every endpoint, including ones added later without their knowing:

* a 201 whose body names the new resource (its ``slug`` or ``id``) under the
  collection it was posted to points there (``POST /api/tournaments/`` →
  ``/api/tournaments/<slug>/``);
* a write whose resource has its address elsewhere has one row in
  :data:`ELSEWHERE` (a dispute raised on a match lives at ``/api/disputes/<id>/``,
  a generated round at ``/api/rounds/<id>/``, a qualified cup at its own address);
* any other 200/201 write answers the nearest address enclosing the one written to
  that can be read — PATCH of a resource: the resource itself; an action such as
  ``/api/rounds/<id>/publish/``: the round; ``report/`` of a match: the match,
  where the pending report is shown; a list of entries: their collection.

The answer then carries the ``ETag`` a GET of that address answers now
(:func:`etags.current_etag`), so a client may send it back in ``If-Match``
without reading the resource again. On a 200 the same address is also
``Content-Location``, HTTP's header for "this answer is about that resource".
Writes that describe no resource (:data:`NOTHING_WRITTEN`: a dry-run check) get
neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from .etags import current_etag
from .language import is_api

WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Elsewhere:
    """The resource of a write is at ``route`` (a URL name), its ``kwarg`` taken from the answer's ``key``
    (a dotted path into the body: ``rounds.0.id``)."""

    route: str
    key: str
    kwarg: str = "pk"


#: Writes (by URL name) whose resource has its address outside the one written to. One row each.
ELSEWHERE: dict[str, Elsewhere] = {
    "api-match-dispute": Elsewhere("api-dispute-detail", "id"),
    "api-tournament-match-dispute": Elsewhere("api-dispute-detail", "id"),
    "api-tournament-rounds-generate": Elsewhere("api-round-detail", "rounds.0.id"),
    "api-tournament-qualify-list": Elsewhere("api-tournament-detail", "slug", "slug"),
}

#: Writes (by URL name) that change nothing and describe no resource: no Location, no ETag.
NOTHING_WRITTEN = frozenset({"api-match-check", "api-tournament-match-check"})


def _body(response) -> Any:
    if response.get("Content-Type", "").split(";")[0] != "application/json":
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def _dig(body: Any, key: str) -> Any:
    for part in key.split("."):
        if isinstance(body, list) and part.isdigit() and int(part) < len(body):
            body = body[int(part)]
        elif isinstance(body, dict):
            body = body.get(part)
        else:
            return None
    return body


def readable(path: str) -> bool:
    """Is ``path`` an address of the API that answers GET?"""
    try:
        match = resolve(path)
    except Resolver404:
        return False
    actions = getattr(match.func, "actions", None)  # a DRF viewset's route: method → action
    if actions is not None:
        return "get" in actions
    view = getattr(match.func, "cls", None) or getattr(match.func, "view_class", None)
    return view is not None and hasattr(view, "get")


def _created_under(request, body: Any) -> str | None:
    if not isinstance(body, dict):
        return None
    for key in ("slug", "id"):
        value = body.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
            candidate = f"{request.path}{value}/"
            if readable(candidate):
                return candidate
    return None


def _enclosing(path: str) -> str | None:
    """The address itself, else the nearest enclosing one, that answers GET (never the API's root)."""
    parts = path.strip("/").split("/")
    while len(parts) > 1:
        candidate = "/" + "/".join(parts) + "/"
        if readable(candidate):
            return candidate
        parts.pop()
    return None


def location_of(request, response, route: str | None) -> str | None:
    """Where the resource a successful write answers about can be read."""
    body = _body(response)
    elsewhere = ELSEWHERE.get(route or "")
    if elsewhere is not None:
        value = _dig(body, elsewhere.key)
        if value is None:
            return None
        try:
            return reverse(elsewhere.route, kwargs={elsewhere.kwarg: value})
        except NoReverseMatch:
            return None
    if response.status_code == 201:
        created = _created_under(request, body)
        if created:
            return created
    return _enclosing(request.path)


class WrittenMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not is_api(request)
            or request.method not in WRITES
            or response.status_code not in (200, 201)
            or getattr(response, "streaming", False)
        ):
            return response
        match = getattr(request, "resolver_match", None)
        route = match.url_name if match is not None else None
        if route in NOTHING_WRITTEN:
            return response
        if not response.has_header("Location"):
            location = location_of(request, response, route)
            if location:
                response["Location"] = location
        if response.has_header("Location"):
            if response.status_code == 200 and not response.has_header("Content-Location"):
                response["Content-Location"] = response["Location"]
            if not response.has_header("ETag"):
                tag = current_etag(request, None if response["Location"] == request.path else response["Location"])
                if tag:
                    response["ETag"] = tag
        return response
