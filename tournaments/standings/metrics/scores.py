"""Metrics that add up a player's own results: wins, points for and against, gammons."""

from __future__ import annotations

from ..ledger import Game
from .base import PerGameMetric, register


@register
class MatchWins(PerGameMetric):
    """Matches won (a bye counts as the organiser set it; a drawn match counts ½)."""

    key = "wins"
    name_ru, name_en = "Победы в матчах", "Match wins"
    abbr_ru, abbr_en = "Поб", "W"

    def per_game(self, g: Game) -> float:
        return g.result


@register
class PointsScored(PerGameMetric):
    """Game points scored over all matches — the book's "Итого" row."""

    key = "points"
    name_ru, name_en = "Очки", "Points scored"
    abbr_ru, abbr_en = "Очки", "Pts"

    def per_game(self, g: Game) -> float:
        return g.score_for


@register
class PointsAgainst(PerGameMetric):
    """Game points conceded; fewer is better."""

    key = "against"
    name_ru, name_en = "Пропущено очков", "Points against"
    abbr_ru, abbr_en = "Проп", "PA"
    lower_is_better = True

    def per_game(self, g: Game) -> float:
        return g.score_against


@register
class PointsDifference(PerGameMetric):
    """Points scored minus points against."""

    key = "difference"
    name_ru, name_en = "Разница очков", "Points difference"
    abbr_ru, abbr_en = "Разн", "Diff"

    def per_game(self, g: Game) -> float:
        return g.score_for - g.score_against


@register
class GammonWins(PerGameMetric):
    """Games won by a gammon/mars or more, where the result sheet recorded them."""

    key = "gammons"
    name_ru, name_en = "Победы марсом и выше", "Gammon wins"
    abbr_ru, abbr_en = "Марс", "Gam"

    def per_game(self, g: Game) -> float:
        return g.gammons
