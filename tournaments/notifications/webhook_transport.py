"""How a webhook leaves: one POST to a vetted address, never to our own network, never redirected.

A subscription's URL is typed by an organiser, so a delivery must not become a
way to reach what only the server can reach (server-side request forgery): the
host is resolved here, and every address it resolves to must be a global one —
loopback (127.0.0.0/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7),
link-local (169.254/16 with the cloud metadata address 169.254.169.254, fe80::/10),
shared, reserved, multicast and unspecified addresses are refused, IPv4 mapped
into IPv6 included. The connection is then made to the address that was vetted
(not resolved again, so a DNS answer that changes in between cannot slip a
private address in), with the original host name for TLS (SNI and certificate).
``http.client`` follows no redirects: a 3xx answer is a failed attempt.

``WEBHOOK_ALLOW_LOCAL`` (off unless set) lets a receiver on this machine or the
local network through, for development and the tests' receiver
(``tests/webhook_receiver.py``).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
from urllib.parse import urlsplit

from django.conf import settings


class UnsafeAddress(OSError):
    """The URL's host resolves to an address a webhook may not reach: the attempt is not made."""


def allow_local() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_LOCAL", False))


def is_public(address: str) -> bool:
    """A global unicast address (an IPv4 address mapped into IPv6 is judged as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def vetted_address(host: str, port: int) -> tuple:
    """The first address ``host`` resolves to, once every one of them is allowed (else raises)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OSError(f"cannot resolve {host}: {exc}") from exc
    if not infos:
        raise OSError(f"cannot resolve {host}")
    if not allow_local():
        for *_rest, sockaddr in infos:
            if not is_public(sockaddr[0]):
                raise UnsafeAddress(
                    f"refused: {host} resolves to {sockaddr[0]}, which is not a public address "
                    "(loopback, private, link-local or metadata); WEBHOOK_ALLOW_LOCAL allows it in development"
                )
    family, kind, proto, _name, sockaddr = infos[0]
    return family, kind, proto, sockaddr


def refusal(url: str) -> str | None:
    """Why a webhook may not be created for ``url`` (its host resolves to a non-public address),
    or None. Checked when the subscription is created or moved, so the organiser hears it at
    once instead of from a failed delivery (issue 45); a host that does not resolve yet is let
    through (it may resolve later; each delivery checks again, :func:`vetted_address`)."""
    parts = urlsplit(url)
    if not parts.hostname or allow_local():
        return None
    try:
        vetted_address(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except UnsafeAddress:
        return parts.hostname
    except (OSError, ValueError):
        return None
    return None


def _connect(host: str, port: int, timeout: float) -> socket.socket:
    family, kind, proto, sockaddr = vetted_address(host, port)
    sock = socket.socket(family, kind, proto)
    sock.settimeout(timeout)
    try:
        sock.connect(sockaddr)
    except OSError:
        sock.close()
        raise
    return sock


class _VettedHTTPConnection(http.client.HTTPConnection):
    def connect(self):
        self.sock = _connect(self.host, self.port, self.timeout)


class _VettedHTTPSConnection(http.client.HTTPSConnection):
    def connect(self):
        sock = _connect(self.host, self.port, self.timeout)
        self.sock = ssl.create_default_context().wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], timeout: float, keep: int) -> tuple[int, bytes]:
    """POST ``body`` to ``url`` once; (status, the first ``keep`` bytes of the answer).

    Raises :class:`UnsafeAddress` for a refused host and ``OSError`` for a network failure.
    ``timeout`` bounds the whole attempt, not only each read: a receiver that trickles its
    answer a byte at a time would otherwise hold the attempt for as long as it likes. At the
    deadline a watchdog shuts the socket, which wakes the blocked read (``TimeoutError``).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeAddress(f"refused: {url!r} is not an http(s) URL")
    connection_class = _VettedHTTPSConnection if parts.scheme == "https" else _VettedHTTPConnection
    connection = connection_class(parts.hostname, parts.port, timeout=timeout)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        if connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.request("POST", target, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(keep)
    except (OSError, http.client.HTTPException) as exc:
        if expired.is_set():
            raise TimeoutError(f"timed out: no whole answer within {timeout:g} s") from exc
        raise
    finally:
        watchdog.cancel()
        connection.close()
