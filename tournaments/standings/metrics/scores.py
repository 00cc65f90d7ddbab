"""Metrics that add up a player's own results: wins, points for and against, gammons."""

from __future__ import annotations

from ..ledger import Ledger
from .base import Metric, register


@register
class MatchWins(Metric):
    """Matches won (a bye counts as the organiser set it; a drawn match counts ½)."""

    key = "wins"
    name_ru, name_en = "Победы в матчах", "Match wins"
    abbr_ru, abbr_en = "Поб", "W"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {pid: sum(g.result for g in games) for pid, games in ledger.games.items()}


@register
class PointsScored(Metric):
    """Game points scored over all matches — the book's "Итого" row."""

    key = "points"
    name_ru, name_en = "Очки", "Points scored"
    abbr_ru, abbr_en = "Очки", "Pts"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {pid: sum(g.score_for for g in games) for pid, games in ledger.games.items()}


@register
class PointsAgainst(Metric):
    """Game points conceded; fewer is better."""

    key = "against"
    name_ru, name_en = "Пропущено очков", "Points against"
    abbr_ru, abbr_en = "Проп", "PA"
    lower_is_better = True

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {pid: sum(g.score_against for g in games) for pid, games in ledger.games.items()}


@register
class PointsDifference(Metric):
    """Points scored minus points against."""

    key = "difference"
    name_ru, name_en = "Разница очков", "Points difference"
    abbr_ru, abbr_en = "Разн", "Diff"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {
            pid: sum(g.score_for - g.score_against for g in games)
            for pid, games in ledger.games.items()
        }


@register
class GammonWins(Metric):
    """Games won by a gammon/mars or more, where the result sheet recorded them."""

    key = "gammons"
    name_ru, name_en = "Победы марсом и выше", "Gammon wins"
    abbr_ru, abbr_en = "Марс", "Gam"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {pid: sum(g.gammons for g in games) for pid, games in ledger.games.items()}
