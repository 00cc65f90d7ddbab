"""Rate limits with one clear page: the login lockout (django-axes) and private-link guessing.

A private link (``/p/<token>/``) is the player's key, so guessing tokens must be slow:
each unknown token (a 404 under ``/p/``) counts against the client's address on the
shared cache (django-ratelimit), and past ``PRIVATE_LINK_MISS_RATE`` every ``/p/``
request with an unsigned token from that address gets the 429 page until the window passes.
Players who open their own valid link never count and are never blocked (a link we issued
bears our signature, checked without the database), so a hall behind one NAT address is
not locked out by one player typing made-up links.
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.access import private_links
from zarik.limits import guesses

PRIVATE_PREFIXES = ("/p/", "/notifications/")


def client_ip(request) -> str:
    """The client's address behind the proxy named by CLIENT_IP_HEADER (the first hop)."""
    forwarded = request.META.get(settings.CLIENT_IP_HEADER, "")
    return forwarded.split(",")[0].strip() or request.META.get("REMOTE_ADDR", "")


def too_many_requests(request, message: str, retry_after: int | None = None):
    """The 429 page: what was limited, and when to try again."""
    response = render(request, "429.html", {"message": message}, status=429)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def login_locked_out(request, original_response=None, credentials=None):
    """django-axes' lockout answer (AXES_LOCKOUT_CALLABLE)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = _(
        "Too many failed logins for this account from your address. Wait %(minutes)s minutes "
        "and try again, or ask the organiser to reset your password."
    ) % {"minutes": minutes}
    return too_many_requests(request, message, retry_after=minutes * 60)


def _private_link_usage(request, increment: bool):
    """The address's count of unknown tokens (:mod:`zarik.limits`); None while the cache is down."""
    return guesses(request, "private-link-miss", settings.PRIVATE_LINK_MISS_RATE, increment=increment)


def _issued_link(path: str) -> bool:
    """A ``/p/<token>/…`` path whose token bears our signature: never blocked by the guess limit."""
    if not path.startswith("/p/"):
        return False
    token = path[len("/p/"):].split("/", 1)[0]
    return bool(token) and private_links.signed(token)


class PrivateLinkLimitMiddleware:
    """Counts unknown private-link tokens per address and answers 429 past the limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(PRIVATE_PREFIXES):
            return self.get_response(request)
        usage = _private_link_usage(request, increment=False)
        if usage and usage["count"] >= usage["limit"] and not _issued_link(request.path):
            return too_many_requests(request, _(
                "Too many unknown private links were opened from your address. Check the link "
                "in your email or on your card and try again in a few minutes."
            ), retry_after=usage["time_left"])
        response = self.get_response(request)
        if response.status_code == 404:
            _private_link_usage(request, increment=True)
        return response
