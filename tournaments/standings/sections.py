"""Standings per category section, and the one absolute champion across them.

The book (Part 9, "Категории игроков"): winners are found in each category,
"а вот чемпионом соревнований может быть только сильнейший". Either everyone is
compared by the chosen criteria across sections, or — fairer when sections play
different match lengths — the section winners meet in a play-off.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .ranking import Standings, compute_standings
from .types import Adjustment, Match, Player, StandingsOptions


@dataclass(frozen=True, slots=True)
class ChampionDecision:
    """``champion`` is set when one player is clearly best; otherwise a play-off is needed
    between ``candidates``."""

    champion: Player | None
    candidates: tuple[Player, ...]
    playoff_required: bool
    overall: Standings | None


def section_keys(players: Iterable[Player]) -> list[str]:
    """Sections in the order their first player appears (the shell lists them in its order)."""
    seen: dict[str, None] = {}
    for p in players:
        seen.setdefault(p.section, None)
    return list(seen)


def section_standings(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    adjustments: Sequence[Adjustment] = (),
) -> dict[str, Standings]:
    """One ranking per section, each from the matches inside that section."""
    return {
        key: compute_standings(players, matches, options, section=key, adjustments=adjustments)
        for key in section_keys(players)
    }


def absolute_champion(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    *,
    criteria: Sequence[str] | None = None,
    playoff: bool = False,
    adjustments: Sequence[Adjustment] = (),
) -> ChampionDecision:
    """Who is champion of the whole event.

    With ``playoff=True`` the section winners are the candidates (a play-off is
    required when there are several). Otherwise every player is ranked together
    by ``criteria`` (default: the tournament's own tie-breaks); a tie for first
    also calls for a play-off, as the book's "чемпионский отборочный тур".
    """
    if playoff:
        winners: list[Player] = []
        for standing in section_standings(players, matches, options, adjustments).values():
            winners.extend(r.player for r in standing.rows if r.place == 1)
        alone = winners[0] if len(winners) == 1 else None
        return ChampionDecision(alone, tuple(winners), len(winners) > 1, None)
    opts = options or StandingsOptions()
    if criteria:
        opts = replace(opts, tiebreaks=tuple(criteria))
    overall = compute_standings(players, matches, opts, adjustments=adjustments)
    leaders = tuple(r.player for r in overall.rows if r.place == 1)
    alone = leaders[0] if len(leaders) == 1 else None
    return ChampionDecision(alone, leaders, len(leaders) > 1, overall)
