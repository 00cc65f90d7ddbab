"""The shared Redis cache, but a Redis outage is a cache miss, never an error page.

Pages and result entry must keep working when Redis is down (issue 17): every
read answers "not cached", every write is skipped, and the process stops asking
Redis for :data:`RETRY_SECONDS` after a failure so a dead server costs one short
connect timeout, not one per fragment.

Nothing stale survives the outage: tournament pages are cached under a version
that every change bumps (:mod:`tournaments.cache`). A bump that could not reach
Redis leaves old fragments reachable once it is back, so the first process
that lost a write clears the cache database as soon as Redis answers again.
``CACHE_URL`` must therefore name a Redis database of its own (e.g. ``/1``, with
the Celery broker on ``/0``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: After a failure, Redis is not asked again in this process for this long.
RETRY_SECONDS = 5.0
#: Connect and read timeouts (seconds) unless CACHES["default"]["OPTIONS"] says otherwise.
TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


#: INCRBY only an existing key (Django's ``incr`` must not create one), atomically.
INCR_EXISTING = """
if redis.call('exists', KEYS[1]) == 1 then return redis.call('incrby', KEYS[1], ARGV[1]) end
return false
"""


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's client, but one ``redis.Redis`` per connection pool instead of one per call.

    Building a ``redis.Redis`` fills its table of ~170 response callbacks; Django
    builds one for every cache operation, which cost about 0.7 ms of CPU per call
    (a result action makes ~10 calls: a third of its CPU under issue 17's load).
    A ``redis.Redis`` over a pool is safe to share: each command borrows a connection.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def incr(self, key, delta):
        """Django's ``incr`` in one round trip instead of two (EXISTS, then INCRBY): the
        page cache bumps versions several times per result action."""
        value = self.get_client(key, write=True).eval(INCR_EXISTING, 1, key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value


#: Count each version key up, or start it at ARGV[1] when missing: the page cache's bumps of one
#: change (a tournament's results, a round) in one round trip instead of one per key.
BUMP_VERSIONS = """
for _, key in ipairs(KEYS) do
  if redis.call('exists', key) == 1 then redis.call('incr', key) else redis.call('set', key, ARGV[1]) end
end
return #KEYS
"""


#: A sliding window of request times (newest first) in one round trip: drop the times older than
#: the window, refuse when the limit is reached, else add this one. Returns {allowed 0/1, requests
#: counted in the window, the oldest counted time}: the API throttle's GET and SET of a pickled
#: list, made atomic and one call (:class:`tournaments.api.http.throttling.ApiRateThrottle`).
COUNT_REQUEST = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local n = redis.call('llen', KEYS[1])
while n > 0 and tonumber(redis.call('lindex', KEYS[1], -1)) <= now - window do
  redis.call('rpop', KEYS[1])
  n = n - 1
end
if n >= limit then return {0, n, redis.call('lindex', KEYS[1], -1)} end
redis.call('lpush', KEYS[1], ARGV[1])
redis.call('expire', KEYS[1], math.ceil(window))
return {1, n + 1, redis.call('lindex', KEYS[1], -1)}
"""


class VersionsRedisCache(RedisCache):
    """:class:`RedisCache` plus :meth:`bump_versions` (:mod:`tournaments.cache` looks for it) and
    :meth:`count_request` (the API throttle looks for it)."""

    def count_request(self, key: str, now: float, window: int, limit: int) -> tuple[bool, int, float]:
        """Count a request at ``now`` in ``key``'s sliding window of ``window`` seconds unless
        ``limit`` requests are in it already: (allowed, requests in the window, the oldest's time)."""
        name = self.make_and_validate_key(key)
        allowed, count, oldest = self._cache.get_client(name, write=True).eval(
            COUNT_REQUEST, 1, name, repr(now), window, limit
        )
        return bool(allowed), int(count), float(oldest) if oldest is not None else now

    def bump_versions(self, keys: list[str], fresh: int) -> None:
        """Count every key up by one; a missing key starts at ``fresh`` (one Redis call)."""
        if keys:
            names = [self.make_and_validate_key(key) for key in keys]
            self._cache.get_client(names[0], write=True).eval(BUMP_VERSIONS, len(names), *names, fresh)


class ResilientRedisCache(VersionsRedisCache):
    """:class:`RedisCache` that treats an unreachable Redis as an empty cache."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = {**params, "OPTIONS": {**TIMEOUTS, **(params.get("OPTIONS") or {})}}
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self._state = threading.Lock()
        self._down_until = 0.0
        self._lost_write = False

    def _call(self, name: str, default: Any, write: bool, *args: Any, **kwargs: Any) -> Any:
        if self._down_until:
            if time.monotonic() < self._down_until or not self._recovered():
                if write:
                    self._lost_write = True
                return default
        try:
            return getattr(super(), name)(*args, **kwargs)
        except RedisError as exc:
            self._failed(exc, write)
            return default

    def _failed(self, exc: Exception, write: bool) -> None:
        with self._state:
            first = self._down_until == 0.0
            self._down_until = time.monotonic() + RETRY_SECONDS
            self._lost_write = self._lost_write or write
        if first:
            logger.warning("cache unavailable, serving without it: %s", exc)

    def _recovered(self) -> bool:
        """Try Redis again; if a write of ours was lost meanwhile, clear what may be stale first."""
        lost = self._lost_write
        try:
            if lost:
                super().clear()
            else:
                super().has_key("zarik:ping")
        except RedisError as exc:
            self._failed(exc, False)
            return False
        with self._state:
            self._down_until, self._lost_write = 0.0, False
        logger.warning("cache available again%s", "; cleared (a change was not recorded)" if lost else "")
        return True

    # Reads: a miss.
    def get(self, key, default=None, version=None):
        return self._call("get", default, False, key, default, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, False, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, False, key, version)

    # Writes: skipped (and remembered, see the module's note).
    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", None, True, key, value, timeout, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", False, True, key, value, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", list(data), True, data, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, True, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", False, True, key, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, True, keys, version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", delta, True, key, delta, version)

    def bump_versions(self, keys, fresh):
        return self._call("bump_versions", None, True, keys, fresh)

    def count_request(self, key, now, window, limit):
        """None while Redis is down: the throttle lets the request through (as a missed read would)."""
        return self._call("count_request", None, True, key, now, window, limit)

    def clear(self):
        return self._call("clear", None, True)
