"""Season standings: points by place in each event, best N of M, ties by the chosen metrics.

Pure: the Django shell (``clubs.life.seasons.standings``) reads each finished event's final
standings and the season's matches, and passes plain data in.

* An event gives a player the points of the place they finished
  (``points_by_place[place - 1]``; beyond the table: 0). Players sharing places
  ("3–4") share the points of those places equally — the average — so a tie
  never earns more than the places it covers.
* With ``best_of`` = N, only a player's N best events count towards the total
  (the others are still shown, unmarked); without it every event counts.
* Players level on the total are separated by the season's tie-break metrics
  (the standings registry), computed over every match of the season's events as
  one ledger: the same successive refinement as a tournament's table, so a
  later criterion only orders players an earlier one left level. Whoever is
  still level shares the place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .ledger import Ledger
from .metrics import get_metric
from .ranking import resolve_options
from .types import Match, Player, StandingsOptions, System


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """One finished event of the season: ``places`` maps a player id to (place, last shared place)."""

    id: int
    places: Mapping[int, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class SeasonRow:
    player: Player
    place: int
    place_to: int
    points: Mapping[int, float]  # event id → season points earned there (events played only)
    counted: frozenset[int]  # the events whose points make the total
    total: float
    values: Mapping[str, float | None] = field(default_factory=dict)

    @property
    def place_label(self) -> str:
        return f"{self.place}–{self.place_to}" if self.place_to > self.place else str(self.place)


def points_for(place: int, place_to: int, table: Sequence[float]) -> float:
    """The points of places ``place``..``place_to`` shared equally (0 beyond the table)."""
    shares = [table[p - 1] if 0 < p <= len(table) else 0 for p in range(place, place_to + 1)]
    return sum(shares) / len(shares)


def best(points: Mapping[int, float], best_of: int | None, order: Sequence[int]) -> frozenset[int]:
    """The events that count: all, or the ``best_of`` highest (the earlier event wins a tie)."""
    played = [e for e in order if e in points]
    if best_of is None or len(played) <= best_of:
        return frozenset(played)
    ranked = sorted(played, key=lambda e: (-points[e], played.index(e)))
    return frozenset(ranked[:best_of])


def season_standings(
    players: Iterable[Player],
    events: Sequence[SeasonEvent],
    points_by_place: Sequence[float],
    *,
    best_of: int | None = None,
    tiebreaks: Sequence[str] = (),
    matches: Iterable[Match] = (),
) -> list[SeasonRow]:
    """Rank every player who finished at least one event; raises ``RuleViolation`` for bad metrics.

    ``matches`` are the season's matches with player ids (round numbers made
    unique across events by the caller); only needed when ``tiebreaks`` is not empty.
    """
    known = {p.id: p for p in players}
    order = [e.id for e in events]
    earned: dict[int, dict[int, float]] = {}
    for event in events:
        for pid, (place, place_to) in event.places.items():
            if pid in known:
                earned.setdefault(pid, {})[event.id] = points_for(place, place_to, points_by_place)
    counted = {pid: best(pts, best_of, order) for pid, pts in earned.items()}
    totals = {pid: sum(pts[e] for e in counted[pid]) for pid, pts in earned.items()}
    ranked_players = [known[pid] for pid in earned]
    groups = _by_total(ranked_players, totals)
    values: dict[str, dict[int, float]] = {}
    if tiebreaks and ranked_players:
        options = resolve_options(StandingsOptions(system=System.SWISS, tiebreaks=tuple(tiebreaks)))
        ledger = Ledger(ranked_players, matches, options, get_metric)
        for metric in (get_metric(k) for k in options.tiebreaks):
            refined: list[list[int]] = []
            for group in groups:
                if len(group) > 1:
                    refined.extend(metric.split(group, ledger))
                    if not metric.global_value:
                        values.setdefault(metric.key, {}).update(metric.group_values(group, ledger))
                else:
                    refined.append(group)
            groups = refined
            if metric.global_value:
                values[metric.key] = ledger.values(metric.key)
    rows: list[SeasonRow] = []
    place = 1
    for group in groups:
        for pid in group:
            rows.append(
                SeasonRow(
                    player=known[pid], place=place, place_to=place + len(group) - 1,
                    points=earned[pid], counted=counted[pid], total=totals[pid],
                    values={k: v.get(pid) for k, v in values.items()},
                )
            )  # fmt: skip
        place += len(group)
    return rows


def _by_total(players: Sequence[Player], totals: Mapping[int, float]) -> list[list[int]]:
    """Players grouped by total, best first; inside a group by name (the display order of ties)."""
    ordered = sorted(players, key=lambda p: (-totals[p.id], p.name_ru, p.id))
    groups: list[list[int]] = []
    last: float | None = None
    for p in ordered:
        if groups and totals[p.id] == last:
            groups[-1].append(p.id)
        else:
            groups.append([p.id])
            last = totals[p.id]
    return groups
