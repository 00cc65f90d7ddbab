"""Standings per category section, the winner of each, and the one absolute champion.

The book (Part 9, "Категории игроков"): "Победители выявляются в каждой категории. А
вот чемпионом соревнований может быть только сильнейший." Winners are found in each
category; the champion of the event can only be the strongest. Our reading, the rule
:func:`absolute_champion` applies:

* each section (a category, or a row of the table) has its winner: first place of its
  own table, by the organiser's criteria;
* the strongest is the winner of the strongest section — the one whose players have the
  highest category. Ranking everyone together by match wins is *not* a comparison of
  strength: a beginner's five wins in 5-point matches without the cube would outrank a
  master's four in 13-point matches with it;
* a shared first place in that section (or two sections equally strong) is decided as
  the book decides ties for the title: "назначается дополнительный чемпионский
  отборочный тур" — a play-off between them;
* the organiser may instead hold a final among all the category winners (``playoff``);
* nobody is named before the event is finished (``finished``): a title is not a lead.

An event of one section names its champion too (:func:`champion_of`) when its system ranks
the title by the table — round robin and Swiss: «По другой схеме победитель определяется по
максимуму набранных очков», and of the book's crosstable «Чемпионство Сидорова (№3)
неоспоримо!» (Part 9). A first place still shared after every tie-break the organiser chose
names nobody: "если … двое или несколько игроков набрали одинаковое количество очков, то …
сравниваются их личные матчи, либо при необходимости назначается дополнительный чемпионский
отборочный тур" — the play-off is between them. A cup's winner is its bracket's (the final),
a Scheveningen event's is the team knockout's: their tables name no champion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .ranking import Standings, compute_standings
from .types import Adjustment, Match, Player, StandingsOptions, System

#: Systems whose champion is the first place of the standings table (see the module's docstring).
TITLE_BY_TABLE = frozenset({System.ROUND_ROBIN, System.SWISS})


@dataclass(frozen=True, slots=True)
class ChampionDecision:
    """``champion`` is set when one player is the strongest section's sole winner of a
    finished event; otherwise, finished, a play-off is needed between ``candidates``.

    ``winners`` names the winner(s) of each section, strongest section first (several
    when the first place is shared). ``overall`` ranks everyone together by the criteria —
    for a prize table that covers the whole event, never for the title."""

    champion: Player | None
    candidates: tuple[Player, ...]
    playoff_required: bool
    overall: Standings | None
    winners: tuple[tuple[str, tuple[Player, ...]], ...] = ()
    finished: bool = True


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


def section_strength(players: Iterable[Player], categories: Mapping[int, int | None]) -> dict[str, int]:
    """Each section's strength: the highest category among its entries (the categories a
    section holds do not overlap another's, so this orders the sections as the table does)."""
    out: dict[str, int] = {}
    for p in players:
        out[p.section] = max(out.get(p.section, 0), categories.get(p.id) or 0)
    return out


def absolute_champion(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    *,
    strength: Mapping[str, int] | None = None,
    finished: bool = True,
    criteria: Sequence[str] | None = None,
    playoff: bool = False,
    adjustments: Sequence[Adjustment] = (),
) -> ChampionDecision:
    """Who is champion of the whole event, by the rule in this module's docstring.

    ``strength``: section key → its strength (:func:`section_strength`); sections missing
    from it count as equally strong (then every section winner is a candidate).
    ``criteria``: the order of the ``overall`` table (default: the tournament's own).
    """
    by_section = section_standings(players, matches, options, adjustments)
    # A section where no match was drawn names no winner: «Победители выявляются» by play (book
    # Part 9 l.73), and one whose every entry left before a round is as empty as one nobody
    # entered, which the event does not wait for (README, "Winners and the absolute champion").
    seated = {p for m in matches for p in (m.player_a, m.player_b) if p is not None}
    drawn = {p.section for p in players if p.id in seated}
    by_section = {key: table for key, table in by_section.items() if key in drawn}
    strength = strength or {}
    order = sorted(by_section, key=lambda key: -strength.get(key, 0))
    winners = tuple(
        (key, tuple(r.player for r in by_section[key].rows if r.place == 1 and r.counted))
        for key in order
    )
    opts = options or StandingsOptions()
    if criteria:
        opts = replace(opts, tiebreaks=tuple(criteria))
    overall = compute_standings(players, matches, opts, adjustments=adjustments)
    if playoff or not order:
        candidates = tuple(p for _key, ps in winners for p in ps)
    else:
        top = strength.get(order[0], 0)
        candidates = tuple(p for key, ps in winners if strength.get(key, 0) == top for p in ps)
    if not finished:
        return ChampionDecision(None, candidates, False, overall, winners, False)
    alone = candidates[0] if len(candidates) == 1 else None
    return ChampionDecision(alone, candidates, len(candidates) > 1, overall, winners, True)


def champion_of(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    *,
    categories: Mapping[int, int | None] | None = None,
    finished: bool = True,
    adjustments: Sequence[Adjustment] = (),
    tables: Mapping[str, Standings] | None = None,
) -> ChampionDecision | None:
    """Who holds the title, for every page, the API and the workbook alike (None: the event's
    table names no champion — a cup or a Scheveningen event of one section).

    Several sections: :func:`absolute_champion` (the strongest section's winner). One section
    of a system in :data:`TITLE_BY_TABLE`: its first place — alone, the champion; shared after
    every tie-break, a play-off between them (``playoff_required``). ``tables``: the sections'
    standings already computed (a 10,000-player Swiss is not ranked twice).
    """
    keys = section_keys(players)
    if len(keys) > 1:
        return absolute_champion(
            players, matches, options, adjustments=adjustments, finished=finished,
            strength=section_strength(players, categories or {}),
        )
    if not keys or (options or StandingsOptions()).system not in TITLE_BY_TABLE:
        return None
    key = keys[0]
    table = (tables or {}).get(key) or compute_standings(
        players, matches, options, section=key, adjustments=adjustments
    )
    first = tuple(r.player for r in table.rows if r.place == 1 and r.counted)
    winners = ((key, first),)
    if not finished:
        return ChampionDecision(None, first, False, table, winners, False)
    alone = first[0] if len(first) == 1 else None
    return ChampionDecision(alone, first, len(first) > 1, table, winners, True)
