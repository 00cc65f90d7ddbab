"""One throttle for the whole API: per token, else per user, else per anonymous IP address,
and the limits said on every answer (``RateLimit-Policy`` and ``RateLimit``).

Rates live in ``settings.ZARIK_API_THROTTLE_RATES`` (``token``, ``user``,
``anon``; environment ``API_RATE_TOKEN`` etc.), read at each request so a
deployment (or a test) may change them. An entry key (a private link's, issue 47)
is a token of its own: its entry's budget, not its address's.

Issue 47: clients learnt the limit only from a 429. The throttle notes what it
counted on the request, and :class:`RateLimitHeadersMiddleware` says it in the
IETF httpapi draft's fields (draft-ietf-httpapi-ratelimit-headers-10):
``RateLimit-Policy: "token";q=1200;w=60`` (the quota ``q`` per window ``w`` seconds,
named after whose budget it is) and ``RateLimit: "token";r=1187;t=42`` (``r`` left,
``t`` seconds until the oldest counted request leaves the window).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from tournaments.models import ApiToken

from .entry_tokens import EntryKey
from .language import is_api


@dataclass(frozen=True)
class Budget:
    """What the throttle counted for this request: whose budget, its quota, window and what is left."""

    policy: str
    quota: int
    window: int
    remaining: int
    reset: int

    def policy_field(self) -> str:
        return f'"{self.policy}";q={self.quota};w={self.window}'

    def field(self) -> str:
        return f'"{self.policy}";r={self.remaining};t={self.reset}'


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
        count_request = getattr(self.cache, "count_request", None)
        if count_request is None:  # the local memory cache: DRF's window (a list read, then written)
            allowed = super().allow_request(request, view)
            self.counted, self.oldest = len(self.history), (self.history[-1] if self.history else None)
        else:
            # Redis: the same sliding window in one atomic round trip instead of a GET and a SET
            # of the pickled list (issue 50). Redis down: let it through, as a missed read would.
            self.now = self.timer()
            allowed, self.counted, self.oldest = count_request(
                f"{self.key}:window", self.now, self.duration, self.num_requests
            ) or (True, 0, None)
        request._request.api_budget = self._budget()
        return allowed

    def wait(self):
        """DRF's ``Retry-After`` from what was counted (either window)."""
        left = self.duration - (self.now - self.oldest) if self.oldest is not None else self.duration
        available = self.num_requests - self.counted + 1
        return left / float(available) if available > 0 else None

    def _budget(self) -> Budget:
        oldest_leaves = self.duration - (self.now - self.oldest) if self.oldest is not None else self.duration
        return Budget(
            policy=self.scope, quota=self.num_requests, window=self.duration,
            remaining=max(0, self.num_requests - self.counted), reset=max(1, math.ceil(oldest_leaves)),
        )  # fmt: skip


class RateLimitHeadersMiddleware:
    """Adds ``RateLimit-Policy`` and ``RateLimit`` to every API answer the throttle counted."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        budget = getattr(request, "api_budget", None)
        if budget is not None and is_api(request):
            response["RateLimit-Policy"] = budget.policy_field()
            response["RateLimit"] = budget.field()
        return response
