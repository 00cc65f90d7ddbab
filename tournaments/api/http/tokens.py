"""API tokens: issue (the key is shown once), find by key, revoke. Only a SHA-256 of the key is stored.

A key looks like ``zk_<8 hex>_<secret>``; its first 12 characters are the
``prefix`` the owner sees in their list to tell tokens apart.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from tournaments.cache import KeptInProcess, bump_counter, counter_with
from tournaments.models import ApiToken, TokenScope

PREFIX_LENGTH = 12
#: ``last_used_at`` is written at most once per this interval per token (one write a minute, not one per request).
LAST_USED_EVERY = timedelta(minutes=1)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _tag(secret: str) -> str:
    """The 8 hex digits before a key's secret: an HMAC of it with the site's secret key."""
    mac = hmac.new(settings.SECRET_KEY.encode(), f"zarik.api-token:{secret}".encode(), hashlib.sha256)
    return mac.hexdigest()[:8]


def signed(key: str) -> bool:
    """Whether ``key`` carries the tag :func:`issue` gives (no database): a key we issued.

    The guess limiter lets these through however many made-up keys came from the same
    address (a guess passes the tag one time in 4 billion, and is then still looked up).
    """
    if not well_formed(key):
        return False
    return hmac.compare_digest(key[3:11], _tag(key[12:]))


def issue(user, name: str, scope: str = TokenScope.READ) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key (which is not stored: show it now or never)."""
    secret = secrets.token_urlsafe(32)
    key = f"zk_{_tag(secret)}_{secret}"
    token = ApiToken.objects.create(
        user=user, name=name, scope=scope, prefix=key[:PREFIX_LENGTH], key_hash=hash_key(key)
    )
    return token, key


#: The version every saved or deleted token or user moves on (:func:`forget_found`).
TOKENS_VERSION = "zarik:api-tokens:version"
#: Lookups kept per process, by (key hash, version): every API request starts with one.
_found = KeptInProcess(10_000)
#: Lookups also kept in the shared cache, with the version they were read at, this long.
SHARED_SECONDS = 24 * 3600
#: When this process last wrote a token's ``last_used_at``, by key hash.
_touched = KeptInProcess(10_000)


def find(key: str) -> ApiToken | None:
    """The token with this key, revoked or not, with its user; None if unknown.

    Read from the database once per key and version, then kept in the shared cache (with
    the version it was read at) and in each process: a hall's 200 phones send a token with
    every click, the lookup with its user cost two milliseconds, and with several web processes a
    phone's few clicks a round mostly land on processes that have not seen its token yet
    (issue 17). The version and the shared copy come in one cache round trip. A revoked,
    deleted or new token, or a changed or deleted user, moves the version on
    (:func:`forget_found`, wired in :mod:`tournaments.signals`), so no process keeps
    accepting a token that was revoked: a copy of another version is never used. The user's
    password hash is not read (token requests never need it), so the cache never holds it.
    Each call returns its own instances.
    """
    digest = hash_key(key)
    shared_key = f"zarik:api-token:{digest}"
    version, shared = counter_with(TOKENS_VERSION, shared_key)

    def read() -> bytes:
        if isinstance(shared, tuple) and len(shared) == 2 and shared[0] == version:
            return shared[1]
        # order_by(): the key hash is unique, and the model's ordering would only sort the one row.
        found = (
            ApiToken.objects.select_related("user").defer("user__password").filter(key_hash=digest)
        )
        token = found.order_by().first()
        blob = pickle.dumps(token)
        if token is not None:  # a made-up key leaves nothing in the shared cache (issue 29)
            cache.set(shared_key, (version, blob), SHARED_SECONDS)
        return blob

    return pickle.loads(_found.get((digest, version), read))


def forget_found(sender=None, **kwargs) -> None:
    """A token or a user changed: every process looks its tokens up again (signal receiver)."""
    bump_counter(TOKENS_VERSION)


def touch(token: ApiToken) -> None:
    """Note that the token was used, writing at most once a minute across all web processes.

    The lookups :func:`find` keeps carry the ``last_used_at`` read then, and each process
    knows only its own writes: with several processes nearly every click of a phone wrote the row
    (issue 17). A marker in the shared cache, added only if absent, lets one process a
    minute write; this process's own note spares it even that round trip.
    """
    now = timezone.now()
    last = max(filter(None, (token.last_used_at, _touched.peek(token.key_hash))), default=None)
    if last is not None and now - last < LAST_USED_EVERY:
        return
    _touched.put(token.key_hash, now)
    marker = f"zarik:api-token-used:{token.key_hash}"
    if not cache.add(marker, 1, int(LAST_USED_EVERY.total_seconds())) and cache.get(marker):
        return  # another process wrote it within the minute (with the cache down: write)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now


def revoke(token: ApiToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


#: The shape :func:`issue` gives every key: anything else is unknown without a lookup.
KEY_SHAPE = re.compile(r"zk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


def well_formed(key: str) -> bool:
    return KEY_SHAPE.fullmatch(key) is not None


def key_from_header(value: str) -> str | None:
    """The key of ``Authorization: Token <key>`` or ``Bearer <key>``; None for other schemes."""
    parts = (value or "").split()
    if len(parts) == 2 and parts[0].lower() in ("token", "bearer"):
        return parts[1]
    return None
