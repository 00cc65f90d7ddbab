"""What the export needs besides players and matches: the tournament's own description."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from tournaments.standings import Adjustment, CrosstableLayout, StandingsOptions
from tournaments.standings.team_match import TeamMatch


class CrosstableKind(StrEnum):
    """N×N grid (round robin), table by rounds (Swiss, knockout), or chosen by the system."""

    AUTO = "auto"
    GRID = "grid"
    ROUNDS = "rounds"


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """Title lines of every sheet. ``sections`` maps section keys to names shown to people.

    The dates are dates, not text: they reach Excel as date cells (sortable, and shown
    in the reader's format), the last day only when the event lasts more than one.
    """

    name_ru: str
    name_en: str = ""
    slug: str = ""
    starts_on: date | None = None
    ends_on: date | None = None
    venue: str = ""
    sections: Mapping[str, str] = field(default_factory=dict)

    @property
    def days(self) -> tuple[date, ...]:
        """The first day, and the last one if it is another day."""
        if self.starts_on is None:
            return ()
        if self.ends_on is None or self.ends_on == self.starts_on:
            return (self.starts_on,)
        return (self.starts_on, self.ends_on)

    def name(self, language: str) -> str:
        if language.startswith("en") and self.name_en:
            return self.name_en
        return self.name_ru or self.name_en

    def section_name(self, key: str) -> str:
        return self.sections.get(key, key)


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """The organiser's choices for one workbook.

    ``pairings_per_round`` puts each round on its own sheet ("Pairings 1", …)
    instead of one "Pairings" sheet. ``grid_limit`` keeps an accidental N×N grid
    of a huge Swiss out of the file: larger sections get the table by rounds.
    """

    language: str = "ru"
    standings: StandingsOptions = field(default_factory=StandingsOptions)
    crosstable: CrosstableKind = CrosstableKind.AUTO
    crosstable_layout: CrosstableLayout = CrosstableLayout.BOOK
    crosstable_order: str = "draw"
    pairings_per_round: bool = False
    grid_limit: int = 60
    adjustments: tuple[Adjustment, ...] = ()
    """Penalties on the tournament score: counted, marked, and listed in a legend."""
    prizes: Mapping[int, object] = field(default_factory=dict)
    """Player id → prize amount (already split by the organiser's rule), shown in a column."""
    event_finished: bool = True
    """The event is over: only then is the absolute champion named (book Part 9; the rule is
    :func:`tournaments.standings.absolute_champion`'s)."""
    categories: Mapping[int, int] = field(default_factory=dict)
    """Player id → the player's category (1–9, the book's table "Категории игроков", Part 9),
    shown on the Players sheet by its number and name."""
    team_matches: tuple[TeamMatch, ...] = ()
    """A Scheveningen event's team matches (the main result): a "Team match" sheet."""
