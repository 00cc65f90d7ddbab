"""The site's own address: the ONE source of every absolute link the site sends out (issue 36).

Emails are written in a background task or on behalf of another visitor, so the
request at hand (if any) is not the reader's way in; every link in an email —
the private page, the tournament, the opt-out — is ``SITE_URL`` + path, from
:func:`absolute` alone. ``SITE_URL`` comes from the environment; when it is not
set, the local server's own address is assumed, on ``PORT`` (``make run PORT=8671``
passes it), so a development server on any port sends links that work.

The configured ``SITE_URL`` is the address players' phones open, so it wins over
the host the organiser happens to browse on (``127.0.0.1`` at the desk's own
laptop encodes a QR code no phone can open). Only when the configured address
is loopback and a page's request came in on a real one (``runserver 0.0.0.0``
without ``SITE_URL``) is the request's own host better: it is the one that worked.

``python -m zarik.site`` prints this machine's address on the local network, for
``make run HOST=0.0.0.0``.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from urllib.parse import urlsplit

from django.conf import settings

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(url: str) -> bool:
    """True when ``url`` points at this machine only (no phone in the hall can open it)."""
    host = (urlsplit(url).hostname or "").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def base(request=None) -> str:
    """Scheme and host of every full link (no trailing slash).

    A loopback ``SITE_URL`` (the default) gives way to the page's own address, which is the
    one that worked: the hall's network address, or the same machine on another port."""
    configured = settings.SITE_URL.rstrip("/")
    if request is not None and is_loopback(configured):
        return request.build_absolute_uri("/").rstrip("/")
    return configured


def default_site_url(environ: Mapping[str, str]) -> str:
    """``SITE_URL`` from the environment, else the local server on ``PORT`` (8000 by default)."""
    explicit = (environ.get("SITE_URL") or "").strip()
    if explicit:
        return explicit.rstrip("/")
    port = (environ.get("PORT") or "").strip() or "8000"
    return f"http://127.0.0.1:{port}"


def absolute(path: str, request=None) -> str:
    """The full address of ``path`` (which starts with ``/``) on this site: for an email (no
    request: always ``SITE_URL``) or a page's link and QR code."""
    return base(request) + path


def lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 when it has none.

    A UDP socket "connected" to a private address picks the outgoing interface
    without sending a packet.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


if __name__ == "__main__":
    print(lan_address())
