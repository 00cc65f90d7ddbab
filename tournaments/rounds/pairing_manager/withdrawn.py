"""A withdrawn player's remaining matches: the one settle step, reachable from the round manager.

Settling a match (a forfeit, a void) belongs to the result workflow (``scoring``), which sits
above this app: it registers its settle step here at start-up (:func:`register_settler`), and
this app calls it through :func:`settle_remaining` without importing ``scoring``.

The registry lives in the round manager, not beside the withdrawal: the entries app already
imports the round manager (the tournament's status follows its rounds), so the round
manager cannot import the entries app, and the lower of the two is the one both can reach.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.models import Entry

#: What happens to a leaving player's unfinished match (the director's choice on the
#: withdraw form): the opponent wins by forfeit, or it is void.
SETTLE_FORFEIT, SETTLE_VOID = "forfeit", "void"
SETTLE_CHOICES = (SETTLE_FORFEIT, SETTLE_VOID)

#: (entry, user, how — one of :data:`SETTLE_CHOICES`, reason) -> the matches settled.
Settler = Callable[[Entry, Any, str, str], Any]
_settlers: list[Settler] = []


def register_settler(settle: Settler) -> None:
    """The result workflow (``scoring``) registers how a pending match is settled, at start-up:
    results belong to ``scoring``, which ``tournaments`` may not import (the arrows run one way)."""
    if settle not in _settlers:
        _settlers.append(settle)


def settle_remaining(entry: Entry, user, how: str, reason: str) -> None:
    """Settle every unfinished match of a withdrawn ``entry`` through the registered settle step
    (in a fixed schedule, draft rounds included), inside the caller's transaction."""
    for settler in _settlers:
        settler(entry, user, how, reason)
