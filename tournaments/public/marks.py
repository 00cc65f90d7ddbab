"""Marks on the public pairings that apps above this one know about: a match recorded live.

The live board lives in the scoring app, which depends on this one, so the pairings ask
through this table instead of importing it: an app registers a function from round ids to
the ids of their matches being recorded now (``scoring.live`` does in its ``ready``). The
pairings fragment is cached by its rounds' versions, so the registering app must move those on
when a mark appears or goes (:func:`tournaments.cache.invalidate_results`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

LiveProvider = Callable[[Sequence[int]], frozenset[int]]

#: Who knows which matches are live: one row per app that records them.
LIVE_PROVIDERS: list[LiveProvider] = []


def provide_live(provider: LiveProvider) -> None:
    if provider not in LIVE_PROVIDERS:
        LIVE_PROVIDERS.append(provider)


def live_matches(round_ids: Sequence[int]) -> frozenset[int]:
    """The ids of the matches of these rounds recorded live now (none without a provider)."""
    if not round_ids:
        return frozenset()
    found: frozenset[int] = frozenset()
    for provider in LIVE_PROVIDERS:
        found |= provider(round_ids)
    return found
