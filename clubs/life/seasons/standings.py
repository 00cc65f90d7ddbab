"""A season's standings from the database: each finished event's final places, then the pure core.

The points-by-place table, best N of M and the tie-breaks are the season's own
(``clubs.Season``); the places come from each tournament's final standings
(:mod:`tournaments.standings_service`, one fixed set of queries per event), and
the core (:mod:`tournaments.standings.season`) does the rest. Only finished
events score; the others are listed as still to come. In an event with
sections, a player's place is their place in their section.

A player is the person (``clubs.Player``), not the entry, so one person's events
add up across the season.

Privacy (the rule of ``tournaments.player_history.PRIVACY_RULE``): the standings are the
same for every reader — a finished event that is not public scores like any other,
since its points are part of the season's numbers — but a reader who may not view it
does not get its name, date or link (``SeasonTable.hidden``): the page and the Excel
file show "an event not shown" in its column and say how many there are. Unfinished
events the reader may not view are not listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clubs.models import Season
from clubs.problems import CLUB
from scoring.rules.errors import Problem, RuleViolation
from tournaments import standings as core
from tournaments.access.permissions import visible_tournaments
from tournaments.models import Tournament, TournamentStatus
from tournaments.standings.metrics import get_metric
from tournaments.standings.order import parse_tiebreaks
from tournaments.standings.season import SeasonEvent, SeasonRow, season_standings
from tournaments.standings_service import load_events

#: How many places may score points (a longer table is surely a typing slip).
MAX_PLACES = 200

#: Round numbers of event k are k * ROUND_OFFSET + round, so the season's ledger keeps events apart.
ROUND_OFFSET = 1000


def parse_points(text: str) -> list[float]:
    """"25, 18, 15" (separated by commas, semicolons or spaces; halves as 2.5) → [25, 18, 15].

    Raises :class:`RuleViolation` with ``club.*`` problems.
    """
    parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
    values: list[float] = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise RuleViolation([CLUB.problem("bad_points", value=part)]) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise RuleViolation([CLUB.problem("bad_points", value=part)])
        if value < 0:
            raise RuleViolation([CLUB.problem("negative_points", value=part)])
        values.append(int(value) if value.is_integer() else value)
    if not values:
        raise RuleViolation([CLUB.problem("bad_points", value=text)])
    if len(values) > MAX_PLACES:
        raise RuleViolation([CLUB.problem("too_many_places", top=MAX_PLACES)])
    return values


def format_points(values) -> str:
    return ", ".join(str(int(v)) if float(v).is_integer() else str(v) for v in values or [])


@dataclass
class SeasonTable:
    season: Season
    events: list[Tournament]  # finished events that score, in date order
    upcoming: list[Tournament]  # the season's other events (not finished yet)
    rows: list[SeasonRow]
    metrics: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    hidden: set[int] = field(default_factory=set)  # scoring events the reader may not view
    places: dict[int, dict[int, tuple[int, int]]] = field(default_factory=dict)  # event → player → place

    def place_label(self, event_id: int, player_id: int) -> str:
        """The player's place in one event as the standings write it ("3", or "1–2" when shared)."""
        place = self.places.get(event_id, {}).get(player_id)
        if place is None:
            return ""
        return str(place[0]) if place[1] == place[0] else f"{place[0]}–{place[1]}"

    @property
    def hidden_count(self) -> int:
        return sum(1 for t in self.events if t.pk in self.hidden)

    @property
    def best_of_applies(self) -> bool:
        return self.season.best_of is not None and len(self.events) > self.season.best_of


def season_events(season: Season, user=None):
    """The season's tournaments the reader may see, in date order."""
    qs = Tournament.objects.all() if user is None else visible_tournaments(user)
    return qs.filter(season=season).order_by("starts_on", "name", "pk")


def compute(season: Season, user=None) -> SeasonTable:
    """The season's standings, the same for every reader; ``user`` decides only which events are named.

    The same few queries however many events (``load_events``).
    """
    tournaments = list(season_events(season))
    shown = {t.pk for t in (tournaments if user is None else season_events(season, user))}
    hidden = {t.pk for t in tournaments if t.pk not in shown}
    finished = [t for t in tournaments if t.status == TournamentStatus.FINISHED]
    upcoming = [t for t in tournaments if t.status != TournamentStatus.FINISHED and t.pk not in hidden]
    problems: list[Problem] = []
    try:
        keys = parse_tiebreaks(season.tiebreaks).keys
    except RuleViolation as err:
        problems.extend(err.problems)
        keys = ()
    players: dict[int, core.Player] = {}
    events: list[SeasonEvent] = []
    matches: list[core.Match] = []
    loaded = load_events(finished)
    for index, tournament in enumerate(finished, start=1):
        event = loaded[tournament.pk]
        person = {eid: info.player_id for eid, info in event.entries.items()}
        for info in event.entries.values():
            players.setdefault(
                info.player_id, core.Player(id=info.player_id, name_ru=info.name_ru, name_latin=info.name_latin)
            )
        places = {}
        for table in event.standings.values():
            for row in table.rows:
                places[person[row.player.id]] = (row.place, row.place_to)
        events.append(SeasonEvent(tournament.pk, places))
        if keys:
            matches.extend(_as_people(event.matches, person, index))
    rows = season_standings(
        players.values(), events, list(season.points_by_place or []),
        best_of=season.best_of, tiebreaks=keys, matches=matches,
    )  # fmt: skip
    return SeasonTable(
        season, finished, upcoming, rows, [get_metric(k) for k in keys], problems,
        {t.pk for t in finished if t.pk in hidden}, {e.id: dict(e.places) for e in events},
    )  # fmt: skip


def _as_people(matches, person: dict[int, int], index: int) -> list[core.Match]:
    """An event's matches with entries replaced by people and rounds moved past earlier events."""
    out = []
    for m in matches:
        b = person.get(m.player_b) if m.player_b is not None else None
        winner = person.get(m.winner) if m.winner is not None else None
        out.append(
            core.Match(
                round=index * ROUND_OFFSET + m.round, player_a=person[m.player_a], player_b=b,
                score_a=m.score_a, score_b=m.score_b, winner=winner, gammons_a=m.gammons_a,
                gammons_b=m.gammons_b, status=m.status, table=m.table, kind=m.kind,
            )
        )  # fmt: skip
    return out
