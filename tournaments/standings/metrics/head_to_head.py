"""Head-to-head: the tied players' matches against each other decide (the book's 3rd place).

The value exists only inside a tied group, so this metric overrides ``split``:
it builds a mini-table of match wins among the tied players. When that table
separates them, any smaller group still level is decided again by its own
mini-table (the matches with those who dropped out no longer count), until
nothing changes. The mini-table is only fair if every tied player met every
other one; when some pair never played (common in a Swiss) the group stays
tied and the next criterion decides.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ledger import Ledger
from .base import Metric, register


def _mini_table(group: Sequence[int], ledger: Ledger) -> dict[int, float] | None:
    """Match wins of each member against the others, or None if some pair never met."""
    members = set(group)
    wins = dict.fromkeys(group, 0.0)
    met: set[tuple[int, int]] = set()
    for pid in group:
        for g in ledger.games[pid]:
            if g.opponent in members:
                wins[pid] += g.result
                met.add((min(pid, g.opponent), max(pid, g.opponent)))
    pairs = len(group) * (len(group) - 1) // 2
    return wins if len(met) == pairs else None


@register
class HeadToHead(Metric):
    key = "h2h"
    name_ru, name_en = "Личная встреча", "Head-to-head"
    abbr_ru, abbr_en = "Личн", "H2H"
    global_value = False

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {}

    def split(self, group: Sequence[int], ledger: Ledger) -> list[list[int]]:
        if len(group) < 2:
            return [list(group)]
        wins = _mini_table(group, ledger)
        if wins is None:
            return [list(group)]
        levels = sorted(set(wins.values()), reverse=True)
        if len(levels) == 1:
            return [list(group)]
        out: list[list[int]] = []
        for level in levels:
            sub = [pid for pid in group if wins[pid] == level]
            out.extend(self.split(sub, ledger) if len(sub) > 1 else [sub])
        return out

    def group_values(self, group: Sequence[int], ledger: Ledger) -> dict[int, float]:
        wins = _mini_table(group, ledger) if len(group) > 1 else None
        return wins or {}
