"""Everything computed once and shared by the sheet writers of one workbook."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.standings import (
    ChampionDecision,
    Match,
    Player,
    Standings,
    absolute_champion,
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

    def subtitle(self) -> str:
        return " · ".join(part for part in (self.info.dates, self.info.venue) if part)


def prepare(
    info: TournamentInfo,
    players: Sequence[Player],
    matches: Sequence[Match],
    options: ExportOptions,
) -> ExportData:
    """Rank every section (and decide the absolute champion if there are several)."""
    standing_opts = resolve_options(options.standings)
    sections = section_keys(players)
    adjustments = options.adjustments
    standings = section_standings(players, matches, standing_opts, adjustments)
    champion = (
        absolute_champion(players, matches, standing_opts, adjustments=adjustments)
        if len(sections) > 1
        else None
    )
    return ExportData(info, options, players, matches, sections, standings, champion)
