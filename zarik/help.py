"""The user manual at ``/help/``: served by the app from its own build, and the "?" links into it.

The manual (docs/, MkDocs) is built into ``HELP_ROOT`` by ``make docs``; ``make run`` and
``make serve`` build it when it is missing. It is served here, by a Django view rather
than from a CDN or a documentation host, for two reasons: a hall may have no internet, and
every response goes through the middleware, so the manual's pages carry the same strict
Content-Security-Policy as the product's (the build moves the theme's inline scripts into
files: docs/hooks/csp.py).

:data:`TOPICS` is the one table of "?" links: a page names a topic (``{% help "rounds" %}``,
zarik/templatetags/help.py), the table gives the manual's page and the section's anchor,
the same in both languages (the manual's headings carry explicit ids). A test builds the
manual and checks that every topic's anchor exists in both languages.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_safe

from zarik.i18n import current_language

#: Russian, the default language, is built at the root; English under ``en/``.
LANGUAGE_PREFIX = {"ru": "", "en": "en/"}


@dataclass(frozen=True)
class Topic:
    """A section of the manual: its page (a folder of the built site) and its heading's id."""

    page: str
    anchor: str


TOPICS: dict[str, Topic] = {
    "organise": Topic("organiser/", "tabs"),
    "wizard": Topic("organiser/", "presets"),
    "hall": Topic("organiser/", "public-pages"),
    "settings": Topic("organiser/systems/", "tie-breaks"),
    "swiss": Topic("organiser/systems/", "swiss-options"),
    "teams": Topic("organiser/systems/", "scheveningen"),
    "sections": Topic("organiser/categories/", "sections"),
    "entries": Topic("organiser/entries/", "entries"),
    "import": Topic("organiser/entries/", "import"),
    "registrations": Topic("organiser/entries/", "registration"),
    "links": Topic("organiser/entries/", "private-links"),
    "check-in": Topic("organiser/entries/", "check-in"),
    "draw": Topic("organiser/entries/", "open-draw"),
    "rounds": Topic("organiser/rounds/", "rounds"),
    "rulings": Topic("organiser/rounds/", "rulings"),
    "prizes": Topic("organiser/prizes/", "prizes"),
    "print": Topic("organiser/printables/", "printables"),
    "export": Topic("organiser/printables/", "excel"),
    "archive": Topic("organiser/printables/", "archive"),
    "desk": Topic("referee/", "desk"),
    "referee": Topic("referee/", "result-entry"),
    "results-grid": Topic("referee/", "results-grid"),
    "sanctions": Topic("referee/", "sanctions"),
    "disputes": Topic("referee/", "disputes"),
    "records": Topic("referee/", "records"),
    "player": Topic("player/", "private-link"),
    "record": Topic("player/", "record-viewer"),
    "analysis": Topic("player/", "analysis"),
    "members": Topic("club/", "members"),
    "seasons": Topic("club/", "seasons"),
    "ratings": Topic("club/", "ratings"),
    "chouette": Topic("club/", "chouette"),
    "webhooks": Topic("integrator/webhooks/", "webhooks"),
    "tokens": Topic("integrator/conventions/", "tokens"),
}


def help_url(topic: str | None = None, language: str | None = None) -> str:
    """The manual's address for ``topic`` (its start page when None) in the reader's language."""
    prefix = f"/help/{LANGUAGE_PREFIX[language or current_language()]}"
    if topic is None:
        return prefix
    found = TOPICS[topic]  # an unknown topic is a programming error: the template test names it
    return f"{prefix}{found.page}#{found.anchor}"


def help_root() -> Path:
    return Path(settings.HELP_ROOT)


def _file_for(path: str) -> Path | None:
    """The built file a ``/help/<path>`` names, or None; nothing outside the build is reachable."""
    root = help_root().resolve()
    candidate = (root / path).resolve()
    if candidate != root and root not in candidate.parents:
        return None
    if candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


@require_safe
def manual(request: HttpRequest, path: str = "") -> HttpResponse:
    """One file of the built manual; a folder's ``index.html``; the folder's address ends in ``/``."""
    if not (help_root() / "index.html").is_file():
        # Not built: say how to build it instead of a bare 404 (the product works without it).
        return render(request, "help_missing.html", status=404)
    found = _file_for(path)
    if found is None and path.endswith("sitemap.xml"):
        # Material reads the sitemap beside each alternate-language link to keep the reader on
        # the same page when switching language; mkdocs-static-i18n links each page's own
        # translation, so the theme asks for <page>/sitemap.xml: the one sitemap answers for all.
        found = _file_for("sitemap.xml")
    if found is None:
        raise Http404(path)
    if found.name == "index.html" and path and not path.endswith(("/", "index.html")):
        return HttpResponseRedirect(f"{request.path}/")
    content_type, encoding = mimetypes.guess_type(found.name)
    if encoding or not content_type:  # sitemap.xml.gz is a file to download, not a compressed page
        content_type = "application/gzip" if encoding == "gzip" else "application/octet-stream"
    if content_type.startswith("text/") or content_type in ("application/javascript", "application/json"):
        content_type += "; charset=utf-8"
    response = FileResponse(found.open("rb"), content_type=content_type)
    # Pages change with each build; the theme's assets carry a hash in their names.
    response.headers["Cache-Control"] = "public, max-age=300" if found.suffix == ".html" else "public, max-age=86400"
    return response
