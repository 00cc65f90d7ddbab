"""One throttle for the whole API: per token, else per user, else per anonymous IP address.

Rates live in ``settings.ZARIK_API_THROTTLE_RATES`` (``token``, ``user``,
``anon``; environment ``API_RATE_TOKEN`` etc.), read at each request so a
deployment (or a test) may change them.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from tournaments.models import ApiToken

from .entry_tokens import EntryKey


class ApiRateThrottle(SimpleRateThrottle):
    def get_cache_key(self, request, view):
        if isinstance(request.auth, ApiToken):
            self.scope, ident = "token", request.auth.pk
        elif isinstance(request.auth, EntryKey):
            self.scope, ident = "token", request.auth.throttle_ident
        elif request.user and request.user.is_authenticated:
            self.scope, ident = "user", request.user.pk
        else:
            self.scope, ident = "anon", self.get_ident(request)
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return f"api-throttle:{self.scope}:{ident}"

    def get_rate(self):
        return settings.ZARIK_API_THROTTLE_RATES.get(getattr(self, "scope", None) or "anon")

    def __init__(self):
        # The rate depends on who is asking, known only in get_cache_key.
        self.rate = None
        self.num_requests = self.duration = None

    def allow_request(self, request, view):
        if getattr(request._request, "internal_read", False):
            return True  # the ETag a write answers, or an If-Match check: part of the client's one request
        self.key = self.get_cache_key(request, view)
        if self.rate is None:
            return True
        return super().allow_request(request, view)
