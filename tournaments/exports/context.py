"""Everything computed once and shared by the sheet writers of one workbook."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.standings import (
    ChampionDecision,
    Match,
    Player,
    Standings,
    champion_of,
    resolve_options,
    section_keys,
    section_standings,
)

from .meta import ExportOptions, TournamentInfo


@dataclass(frozen=True, slots=True)
class ExportData:
    info: TournamentInfo
    options: ExportOptions
    players: Sequence[Player]
    matches: Sequence[Match]
    sections: list[str]
    standings: dict[str, Standings]
    champion: ChampionDecision | None

    @property
    def language(self) -> str:
        return self.options.language

    @property
    def multi_section(self) -> bool:
        return len(self.sections) > 1

    def title(self, heading: str) -> str:
        return f"{self.info.name(self.language)} — {heading}"

    @property
    def date_style(self) -> str:
        """Dates as the reader writes them: 01.03.2026 in Russian, ISO 2026-03-01 in English."""
        return "date_en" if self.language.startswith("en") else "date_ru"


def start_number(player: Player) -> int | str:
    """The number a player is known by on every sheet: the draw number (the entry's start
    number, book Part 9: "под своими номерами регистрируются в турнирной таблице"), never a row
    position; blank before the draw (a paired player always has one)."""
    return player.draw_number if player.draw_number is not None else ""


def prepare(
    info: TournamentInfo,
    players: Sequence[Player],
    matches: Sequence[Match],
    options: ExportOptions,
) -> ExportData:
    """Rank every section and decide the title (:func:`~tournaments.standings.champion_of`)."""
    standing_opts = resolve_options(options.standings)
    sections = section_keys(players)
    adjustments = options.adjustments
    standings = section_standings(players, matches, standing_opts, adjustments)
    champion = champion_of(
        players, matches, standing_opts, adjustments=adjustments, tables=standings,
        categories=options.categories, finished=options.event_finished,
    )
    return ExportData(info, options, players, matches, sections, standings, champion)
