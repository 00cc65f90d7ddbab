"""The shape every tie-break metric shares, and the table they register in.

One class per metric (the Tabbycat idea): a stable ``key`` the organiser's
choice is stored under, names in both languages for headings, and one method
that computes everyone's value from the :class:`~..ledger.Ledger`. Ranking only
needs :meth:`Metric.split`, so a metric whose value depends on who is tied
(head-to-head) can override that alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..ledger import Game, Ledger

_REGISTRY: dict[str, Metric] = {}


class Metric:
    key: ClassVar[str]
    name_ru: ClassVar[str]
    name_en: ClassVar[str]
    abbr_ru: ClassVar[str]
    abbr_en: ClassVar[str]
    #: What the organiser's picker says the criterion does (empty: the name says it all).
    help_ru: ClassVar[str] = ""
    help_en: ClassVar[str] = ""
    #: False for a metric decided only inside a tied group (nothing to show for the rest).
    global_value: ClassVar[bool] = True
    lower_is_better: ClassVar[bool] = False

    def name(self, language: str = "ru") -> str:
        return self.name_en if language.startswith("en") else self.name_ru

    def abbr(self, language: str = "ru") -> str:
        return self.abbr_en if language.startswith("en") else self.abbr_ru

    def help(self, language: str = "ru") -> str:
        return self.help_en if language.startswith("en") else self.help_ru

    def compute(self, ledger: Ledger) -> dict[int, float]:
        """Every player's value; higher ranks first unless ``lower_is_better``."""
        raise NotImplementedError

    def split(self, group: Sequence[int], ledger: Ledger) -> list[list[int]]:
        """Order a tied group into sub-groups, best first; players still tied share one."""
        values = ledger.values(self.key)
        sign = 1 if self.lower_is_better else -1
        ordered = sorted(group, key=lambda pid: sign * values[pid])
        out: list[list[int]] = []
        last: float | None = None
        for pid in ordered:
            v = values[pid]
            if out and v == last:
                out[-1].append(pid)
            else:
                out.append([pid])
                last = v
        return out

    def group_values(self, group: Sequence[int], ledger: Ledger) -> dict[int, float]:
        """Values to show for a tied group this metric was asked to split."""
        values = ledger.values(self.key)
        return {pid: values[pid] for pid in group}


class PerGameMetric(Metric):
    """A metric that adds up one number per finished game of each player.

    Plus the rulings' adjustments to it (:class:`~..types.Adjustment`): a penalty
    is one more term of the same sum, never a special case in a metric.
    """

    def per_game(self, game: Game) -> float:
        raise NotImplementedError

    def compute(self, ledger: Ledger) -> dict[int, float]:
        per_game = self.per_game
        return {
            pid: sum(map(per_game, games)) + ledger.adjustment(self.key, pid)
            for pid, games in ledger.games.items()
        }


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator: add one instance of ``cls`` under its key (keys must be unique)."""
    if cls.key in _REGISTRY:
        raise ValueError(f"metric key {cls.key!r} registered twice")
    _REGISTRY[cls.key] = cls()
    return cls
