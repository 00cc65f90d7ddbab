"""The site's own address: the ONE source of every absolute link the site sends out (issue 36).

Emails are written in a background task or on behalf of another visitor, so the
request at hand (if any) is not the reader's way in; every link in an email —
the private page, the tournament, the opt-out — is ``SITE_URL`` + path, from
:func:`absolute` alone. ``SITE_URL`` comes from the environment; when it is not
set, the local server's own address is assumed, on ``PORT`` (``make run PORT=8671``
passes it), so a development server on any port sends links that work.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings


def default_site_url(environ: Mapping[str, str]) -> str:
    """``SITE_URL`` from the environment, else the local server on ``PORT`` (8000 by default)."""
    explicit = (environ.get("SITE_URL") or "").strip()
    if explicit:
        return explicit.rstrip("/")
    port = (environ.get("PORT") or "").strip() or "8000"
    return f"http://127.0.0.1:{port}"


def absolute(path: str) -> str:
    """The full address of a path of this site, for an email or anything read away from the page."""
    return settings.SITE_URL + path
