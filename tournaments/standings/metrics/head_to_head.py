"""Head-to-head: the tied players' matches against each other decide (the book's 3rd place).

The book (Part 9): when two or more players have the same number of points, "для
выявления победителя (чемпиона соревнований) сравниваются их личные матчи" — their
personal matches are compared. We read that in two steps, both inside a mini-table of
the tied players' matches against each other: first the match wins among them; when
those are level (a double round robin split 1:1, or three players beating each other
in a circle), the game points they scored in those same personal matches. Only then
is the place shared (and the next criterion, if any, decides).

The value exists only inside a tied group, so this metric overrides ``split``.
When the mini-table separates a group, any smaller group still level is decided
again by its own mini-table (the matches with those who dropped out no longer
count), until nothing changes. The mini-table is only fair if every tied player met
every other one; when some pair never played (common in a Swiss) the group stays
tied and the next criterion decides.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ledger import Ledger
from .base import Metric, register


def _mini_table(group: Sequence[int], ledger: Ledger) -> dict[int, tuple[float, float]] | None:
    """(match wins, game points) of each member in the matches against the other members,
    or None if some pair never met."""
    members = set(group)
    wins = dict.fromkeys(group, 0.0)
    points = dict.fromkeys(group, 0.0)
    met: set[tuple[int, int]] = set()
    for pid in group:
        for g in ledger.games[pid]:
            if g.opponent in members:
                wins[pid] += g.result
                points[pid] += float(g.score_for)
                met.add((min(pid, g.opponent), max(pid, g.opponent)))
    pairs = len(group) * (len(group) - 1) // 2
    if len(met) != pairs:
        return None
    return {pid: (wins[pid], points[pid]) for pid in group}


@register
class HeadToHead(Metric):
    key = "h2h"
    name_ru, name_en = "Личная встреча", "Head-to-head"
    abbr_ru, abbr_en = "Личн", "H2H"
    help_ru = (
        "Сравниваются личные матчи игроков с равным счётом: сначала победы в матчах между "
        "ними, при равенстве побед — очки, набранные в этих матчах."
    )
    help_en = (
        "The personal matches of the tied players are compared: first the match wins "
        "among them; when those are level, the points they scored in those matches."
    )
    global_value = False

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {}

    def split(self, group: Sequence[int], ledger: Ledger) -> list[list[int]]:
        if len(group) < 2:
            return [list(group)]
        table = _mini_table(group, ledger)
        if table is None:
            return [list(group)]
        levels = sorted(set(table.values()), reverse=True)
        if len(levels) == 1:
            return [list(group)]
        out: list[list[int]] = []
        for level in levels:
            sub = [pid for pid in group if table[pid] == level]
            out.extend(self.split(sub, ledger) if len(sub) > 1 else [sub])
        return out

    def group_values(self, group: Sequence[int], ledger: Ledger) -> dict[int, float]:
        """The match wins among the tied players (the points break a level of wins)."""
        table = _mini_table(group, ledger) if len(group) > 1 else None
        return {pid: wins for pid, (wins, _points) in table.items()} if table else {}
