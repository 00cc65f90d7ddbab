"""Knockout ("кубковая система"): how far a player got is what ranks them."""

from __future__ import annotations

from ..ledger import WIN, Ledger
from .base import Metric, register


@register
class StageReached(Metric):
    """Twice the last round reached, plus one for winning it (the champion beats the finalist).

    A cup's tables are placed by :mod:`..cup` (the bracket, not this number); there the
    value shown is the stage reached in the table's own bracket (``Match.bracket_round``).
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
