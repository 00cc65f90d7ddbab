"""The site's address: the one place links, QR codes and emails get their host from.

The configured ``SITE_URL`` is the address players' phones open, so it wins over
the host the organiser happens to browse on (``127.0.0.1`` at the desk's own
laptop encodes a QR code no phone can open). Only when the configured address
is loopback and the request came in on a real one (``runserver 0.0.0.0`` without
``SITE_URL``) is the request's own host better: it is the one that worked.

``python -m zarik.site_address`` prints this machine's address on the local
network, for ``make run HOST=0.0.0.0``.
"""

from __future__ import annotations

import ipaddress
import socket
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
    """Scheme and host of every full link (no trailing slash)."""
    configured = settings.SITE_URL.rstrip("/")
    if request is not None and is_loopback(configured):
        from_request = request.build_absolute_uri("/").rstrip("/")
        if not is_loopback(from_request):
            return from_request
    return configured


def absolute(path: str, request=None) -> str:
    """The full address of ``path`` (which starts with ``/``) on this site."""
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
