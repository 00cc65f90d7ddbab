"""DRF authentication by API token (``Authorization: Token <key>`` or ``Bearer <key>``).

The token acts with its user's rights in the one permissions table; a ``read``
token is refused anything but safe methods here, once for every endpoint, so
no view has to remember it.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from tournaments.access import private_links
from tournaments.models import TokenScope
from zarik.i18n import current_language
from zarik.limits import guesses

from . import entry_tokens, tokens
from .problems import api_problem


def _failed(name: str) -> exceptions.AuthenticationFailed:
    problem = api_problem(name)
    return exceptions.AuthenticationFailed(problem.message(current_language()), code=problem.code)


def _misses(request, increment: bool):
    """This address's count of unknown tokens (``API_TOKEN_MISS_RATE``); None while the cache is down.

    Past the limit every token from the address is answered 429 before any lookup, so
    guessing costs neither a database query nor a cache entry per made-up key, and
    the answer says nothing about whether a key exists (issue 29: 400 made-up tokens
    in 1.5 s were all looked up). A cache outage fails open, as the private links do.
    A key we issued (its signature checks without the database) is never refused for its
    address's misses: the throttle is the token's own, so one guesser behind a hall's
    address locks out nobody else (issue 45).
    """
    return guesses(request, "api-token-miss", settings.API_TOKEN_MISS_RATE, increment=increment)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        key = tokens.key_from_header(header)
        if key is None:
            return None  # another scheme (Basic) or none: the next authenticator decides
        if entry_tokens.is_entry_key(key):
            return self._entry_key(request, key)
        if not tokens.signed(key):  # a key we issued is never refused for its address's misses:
            usage = _misses(request, increment=False)  # no count to read (two cache round trips)
            if usage and usage["count"] >= usage["limit"]:
                raise exceptions.Throttled(wait=usage["time_left"])
        token = tokens.find(key) if tokens.well_formed(key) else None
        if token is None:
            _misses(request, increment=True)
            raise _failed("token_invalid")
        if token.revoked_at is not None:
            raise _failed("token_revoked")
        if not token.user.is_active:
            raise _failed("authentication_failed")
        if token.scope == TokenScope.READ and request.method not in SAFE_METHODS:
            problem = api_problem("token_read_only")
            raise exceptions.PermissionDenied(problem.message(current_language()), code=problem.code)
        tokens.touch(token)
        return token.user, token

    @staticmethod
    def _entry_key(request, key: str):
        """A private link's key: its holder, for the writes :data:`entry_tokens.ENTRY_KEY_WRITES` lists."""
        if not private_links.api_key_signed(key):
            usage = _misses(request, increment=False)
            if usage and usage["count"] >= usage["limit"]:
                raise exceptions.Throttled(wait=usage["time_left"])
            _misses(request, increment=True)
            raise _failed("token_invalid")
        entry, _genuine = private_links.entry_for_api_key(key)
        if entry is None:
            raise _failed("entry_key_revoked")
        route = getattr(request._request, "resolver_match", None)
        if not entry_tokens.may(request.method, route.url_name if route is not None else None):
            problem = api_problem("entry_key_scope")
            raise exceptions.PermissionDenied(problem.message(current_language()), code=problem.code)
        return private_links.LinkHolder(entry), entry_tokens.EntryKey(entry)

    def authenticate_header(self, request):
        # A 401 (not 403) for a missing or bad token, with the scheme to use.
        return self.keyword


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The token in the OpenAPI schema (drf-spectacular finds this class by subclassing)."""

    target_class = "tournaments.api.http.auth.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http", "scheme": "bearer",
            "description": "An API token from /account/tokens/: `Authorization: Bearer <key>` or `Token <key>`.",
        }
