"""The disputes on an entry's private page, read by the app that owns them.

Disputes, rulings and the jury belong to the result workflow (``scoring``), which
sits above this app: it registers its reader here in ``ScoringConfig.ready()`` (as
it registers the withdrawal settler with :mod:`tournaments.rounds.pairing_manager.withdrawn`),
so the private page shows each dispute's state, the director's ruling, the appeal
and the jury's decision without this app importing ``scoring``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tournaments.models import Match

#: (the link holder, their matches, their token) -> the disputes to show, newest first.
Reader = Callable[[Any, Sequence[Match], str], list]
#: (a signed-in user) -> the match of theirs whose ruling they may still appeal, if any.
Appealable = Callable[[Any], Match | None]

_reader: Reader | None = None
_appealable: Appealable | None = None


def register(reader: Reader, appealable: Appealable) -> None:
    """Install the readers (the scoring app does, at start-up)."""
    global _reader, _appealable
    _reader, _appealable = reader, appealable


def appealable_match(user) -> Match | None:
    """The user's match with a ruling they may still take to the jury (``/me/`` sends them there)."""
    return _appealable(user) if _appealable is not None else None


def disputes_of(holder, matches: Sequence[Match], token: str) -> list:
    """The disputes of the holder's matches, or none while no reader is installed."""
    if _reader is None or not matches:
        return []
    return _reader(holder, matches, token)
