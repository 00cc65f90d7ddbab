"""API tokens: issue (the key is shown once), find by key, revoke. Only a SHA-256 of the key is stored.

A key looks like ``zk_<8 hex>_<secret>``; its first 12 characters are the
``prefix`` the owner sees in their list to tell tokens apart.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from ..models import ApiToken, TokenScope

PREFIX_LENGTH = 12
#: ``last_used_at`` is written at most once per this interval per token (one write a minute, not one per request).
LAST_USED_EVERY = timedelta(minutes=1)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue(user, name: str, scope: str = TokenScope.READ) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key (which is not stored: show it now or never)."""
    key = f"zk_{secrets.token_hex(4)}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(
        user=user, name=name, scope=scope, prefix=key[:PREFIX_LENGTH], key_hash=hash_key(key)
    )
    return token, key


def find(key: str) -> ApiToken | None:
    """The token with this key, revoked or not, with its user; None if unknown."""
    # order_by(): the key hash is unique, and the model's ordering would only sort the one row.
    return ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).order_by().first()


def touch(token: ApiToken) -> None:
    """Note that the token was used, writing at most once a minute."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def revoke(token: ApiToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


def key_from_header(value: str) -> str | None:
    """The key of ``Authorization: Token <key>`` or ``Bearer <key>``; None for other schemes."""
    parts = (value or "").split()
    if len(parts) == 2 and parts[0].lower() in ("token", "bearer"):
        return parts[1]
    return None
