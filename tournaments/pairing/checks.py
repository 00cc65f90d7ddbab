"""The absolute rules a hand-made pairing must keep: no rematch, at most one pairing bye.

The Swiss generator never proposes a rematch unless told to; when an organiser
swaps or sets tables by hand, the manager re-checks the proposal here, so the
rule lives in one place, in the core.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from scoring.rules.errors import Problem

from .problems import PAIRING
from .types import PlayerId


def check_pairings(
    tables: Iterable[tuple[PlayerId, PlayerId | None]],
    met: Collection[frozenset[PlayerId]],
    had_bye: Collection[PlayerId],
    names: Mapping[PlayerId, str] | None = None,
    *,
    byes_limited: bool = True,
) -> list[Problem]:
    """Problems of proposed tables: pairs that already met, and a second pairing bye.

    ``met`` holds the pairs of earlier rounds, ``had_bye`` the players who had a
    pairing bye; ``byes_limited`` is off where byes are part of the schedule
    (round robin with an odd field). Each problem names the players, so the
    organiser can override it with a reason.
    """
    names = names or {}

    def who(key: str, pid: PlayerId) -> dict[str, object]:
        return {key: pid, f"{key}_name": names[pid]} if pid in names else {key: pid}

    out: list[Problem] = []
    for a, b in tables:
        if b is None:
            if byes_limited and a in had_bye:
                out.append(PAIRING.problem("second_bye", **who("entry", a)))
        elif frozenset((a, b)) in met:
            out.append(PAIRING.problem("rematch", **who("a", a), **who("b", b)))
    return out
