"""Knockout ("кубковая система"): how far a player got is what ranks them."""

from __future__ import annotations

from ..ledger import WIN, Ledger
from .base import Metric, register


@register
class StageReached(Metric):
    """Twice the last round reached, plus one for winning it (the champion beats the finalist).

    Players knocked out in the same round tie, so semi-final losers share 3rd–4th
    unless a play-off for third place was played (a later round).
    """

    key = "stage"
    name_ru, name_en = "Достигнутая стадия", "Stage reached"
    abbr_ru, abbr_en = "Стад", "Stage"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        out: dict[int, float] = {}
        for pid, games in ledger.games.items():
            best = max((2 * r for r in ledger.pending[pid]), default=0)
            for g in games:
                best = max(best, 2 * g.round + (1 if g.result == WIN else 0))
            out[pid] = float(best)
        return out
