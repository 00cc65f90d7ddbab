"""Public pages cached until their tournament changes — invalidated by events, not by a timer.

Each tournament has a version number in the cache. Every cached fragment's key
contains that number, so bumping it (see :mod:`tournaments.signals`: any saved
or deleted match, game, round, entry, section, result or the tournament itself)
makes all of the tournament's fragments unreachable at once; the stale ones
simply age out. No fragment ever has to be found and deleted, which also works
across several web processes sharing Redis.

A version is bumped twice: immediately (so the same request or test sees the
change) and again when the transaction commits, so a page rebuilt by another
process between the change and the commit cannot stay cached with old data.

Code that changes rows with ``QuerySet.update()`` or ``bulk_update`` (no
signals) must call :func:`invalidate` itself.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction

from zarik.i18n import current_language

T = TypeVar("T")

#: Only for memory hygiene: fragments are never served stale, since the key changes.
FRAGMENT_TIMEOUT = 24 * 60 * 60


def _version_key(tournament_id: int) -> str:
    return f"zarik:tournament:{tournament_id}:version"


def version(tournament_id: int) -> int:
    """The tournament's current cache version (created on first use).

    A fresh version starts from the clock in nanoseconds, so a version key that
    was evicted can never come back with a number some old fragment still uses.
    """
    key = _version_key(tournament_id)
    value = cache.get(key)
    if value is None:
        cache.add(key, time.time_ns(), None)
        value = cache.get(key) or time.time_ns()
    return int(value)


def bump(tournament_id: int) -> None:
    key = _version_key(tournament_id)
    try:
        cache.incr(key)
    except ValueError:  # never read yet (or evicted): any new number is unused
        cache.set(key, time.time_ns(), None)


def invalidate(tournament_id: int | None) -> None:
    """Drop every cached page of the tournament now, and again once the transaction commits."""
    if tournament_id is None:
        return
    bump(tournament_id)
    transaction.on_commit(lambda: bump(tournament_id))


def fragment_key(tournament_id: int, name: str, params: Mapping[str, object] | None = None) -> str:
    """The cache key of one fragment in the current language and version."""
    digest = ""
    if params:
        canonical = repr(sorted((str(k), str(v)) for k, v in params.items()))
        digest = hashlib.sha1(canonical.encode()).hexdigest()[:16]
    lang = current_language()
    return f"zarik:tournament:{tournament_id}:v{version(tournament_id)}:{lang}:{name}:{digest}"


def cached_fragment(
    tournament_id: int,
    name: str,
    build: Callable[[], T],
    params: Mapping[str, object] | None = None,
) -> T:
    """The fragment from the cache, or ``build()`` it and keep it until the next change.

    ``build`` may return any picklable value (a page keeps its HTML together
    with its HTTP status, so a "no such round" page is cached like any other).
    """
    key = fragment_key(tournament_id, name, params)
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, FRAGMENT_TIMEOUT)
    return value
