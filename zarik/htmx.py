"""Fragments for htmx, pages for everyone else (issue 44).

A view that answers htmx with a piece of a page (the search results under a box, the hall's
next screen, a progress block) used to send the same piece to anyone opening its address:
a bare document with no language, no title and no way back (axe: ``html-has-lang``,
``document-title``). Such a view asks :func:`is_htmx` and answers a request that is not
htmx's (an address typed or bookmarked, a browser without JavaScript) with the full page the
piece belongs to. The answer differs by the request header, so it says so (``Vary``) and a
cache never hands the fragment to a browser or the page to htmx.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

HEADER = "HX-Request"


def is_htmx(request: HttpRequest) -> bool:
    """The request comes from htmx (it sends ``HX-Request: true``), so a fragment is wanted."""
    return request.headers.get(HEADER) == "true"


def vary(response: HttpResponse) -> HttpResponse:
    """Mark the answer as depending on :data:`HEADER` (a fragment or a page); returns it."""
    patch_vary_headers(response, (HEADER,))
    return response
