"""Counting one address's wrong guesses — made-up API tokens, made-up private links.

Both secrets are long and random, so only a guesser gets many wrong: past the rate the
address is answered 429 before any lookup (issue 29). The count lives in the cache; a
cache outage fails open (no limit) so that a Redis failure never takes the players'
pages or the API down with it.
"""

from __future__ import annotations

import logging

from django_ratelimit.core import get_usage

logger = logging.getLogger(__name__)


def guesses(request, group: str, rate: str, *, increment: bool) -> dict | None:
    """This address's count of wrong guesses in ``group`` at ``rate`` (django-ratelimit's usage:
    ``should_limit`` says when to refuse); None while the cache is unreachable."""
    try:
        return get_usage(request, group=group, key="ip", rate=rate, increment=increment)
    except Exception:  # noqa: BLE001 - any cache failure: fail open, the pages still work
        logger.warning("%s limiter: cache unavailable", group, exc_info=True)
        return None
