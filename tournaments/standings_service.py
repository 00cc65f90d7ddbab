"""From the database to the standings core: one fixed set of queries per tournament.

Public pages, the Excel export and the management command all start here. The
whole event is read with a handful of flat ``values_list`` queries (entries with
their players, rounds, matches, and — only when the tie-breaks need it — a
per-match count of gammons), whatever the number of players or rounds, and is
turned into the core's plain :mod:`tournaments.standings.types`. Everything the
pages show afterwards is computed in Python from that snapshot, so a page's
query count never grows with the size of the event.

Draft rounds are never read: a pairing becomes public only when the organiser
publishes its round.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Count, Q, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce

from clubs.models import Membership
from scoring.rules.errors import Problem, RuleViolation
from tournaments import standings as core
from tournaments.exports import ExportOptions, TournamentInfo
from tournaments.pairing.history import missed_rounds
from tournaments.pairing.options import parse_options
from tournaments.standings.order import parse_tiebreaks
from tournaments.standings.prizes import award_prizes, prize_problems
from zarik.collector import few_collections

from . import cache as page_cache
from .access.visibility import public_matches, public_rounds
from .models import (
    CompetitionSystem,
    Entry,
    EntryStatus,
    Game,
    GameKind,
    Match,
    Prize,
    ResultKind,
    ResultStatus,
    Round,
    ScoreField,
    StandingsAdjustment,
    Tournament,
    TournamentStatus,
    result_stands,
)

#: Game kinds that count as "won by a gammon or more" (марс, домашний марс, кокс).
GAMMON_KINDS = (
    GameKind.GAMMON,
    GameKind.BACKGAMMON,
    GameKind.MARS,
    GameKind.HOME_MARS,
    GameKind.KOKS,
)

NO_SECTION = ""


@dataclass(slots=True)
class EntryInfo:
    """What the pages show about one entry besides the core's :class:`~core.Player`.

    Read-only by convention, not ``frozen`` (five times slower to build, and a 10,000-player
    event builds 10,000 at every change of its entries, issue 32); hashed by its id, the
    same for equal entries, so the pages' row cache can key on it."""

    id: int
    player_id: int
    draw_number: int | None
    status: str
    section: str
    name_ru: str
    name_latin: str
    category: int
    rating: float | None
    removal: str = ""
    """"disqualified" or "removed" (a mark in the standings), else empty."""

    def __hash__(self) -> int:
        return hash(self.id)

    def name(self, language: str = "ru") -> str:
        if language.startswith("en") and self.name_latin:
            return self.name_latin
        return self.name_ru or self.name_latin


@dataclass(frozen=True, slots=True)
class RoundInfo:
    id: int
    number: int
    section: str
    status: str
    match_length: int | None


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a published round as the pairing pages list it."""

    id: int
    round_id: int
    round: int
    section: str
    table: int | None
    a: int
    b: int | None
    score_a: int | None
    score_b: int | None
    winner: str
    result_status: str
    length: int | None = None
    """The match's own length (points, or games), when the pairing stored one."""
    kind: str = ResultKind.PLAYED
    """How the result came about (played, forfeit, double forfeit, time forfeit, void)."""

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def score_text(self) -> str:
        """ "5:3", "2½:1½" — the confirmed score as people write it ("" until confirmed)."""
        if not self.confirmed or self.score_a is None or self.score_b is None:
            return ""
        return f"{core.format_score(_number(self.score_a))}:{core.format_score(_number(self.score_b))}"

    @property
    def confirmed(self) -> bool:
        return self.result_status == ResultStatus.CONFIRMED

    @property
    def stands(self) -> bool:
        """The result counts (:func:`tournaments.models.result_stands`, the ratings' rule too)."""
        return result_stands(self.result_status, self.score_a, self.score_b)

    def side_of(self, entry_id: int) -> str | None:
        if entry_id == self.a:
            return "a"
        if entry_id == self.b:
            return "b"
        return None


@dataclass
class Event:
    """A snapshot of one tournament in the core's terms, plus what pages need to label it."""

    tournament: Tournament
    options: core.StandingsOptions
    option_problems: list[Problem]
    sections: dict[str, str]
    entries: dict[int, EntryInfo]
    players: list[core.Player]
    rounds: list[RoundInfo]
    pairing_rows: list[tuple]
    """Each published match's :class:`Pairing` fields, in order: the pairings are made from
    them on first use (:attr:`pairings`)."""
    matches: list[core.Match]
    clubs: dict[int, str] = field(default_factory=dict)
    adjustments: list[core.Adjustment] = field(default_factory=list)
    """The rulings' penalties on the tournament score (marked on every table, with reasons)."""

    @property
    def system(self) -> core.System:
        return self.options.system

    @property
    def multi_section(self) -> bool:
        return len(self.sections) > 1

    @cached_property
    def pairings(self) -> list[Pairing]:
        """Every published match as the pairing pages list it, made when a page first asks:
        the standings never need them, and a 10,000-player Swiss has 25,000 (issue 32)."""
        return [_pairing(row) for row in self.pairing_rows]

    @cached_property
    def standings(self) -> dict[str, core.Standings]:
        """Per section, in the sections' order (one section "" when the event has none)."""
        with few_collections(kept=True):
            out = core.section_standings(self.players, self.matches, self.options, self.adjustments)
        return {key: out[key] for key in self.sections if key in out}

    @cached_property
    def champion(self) -> core.ChampionDecision | None:
        """Who holds the title, named once the event is finished: with several sections each
        one's winner and the absolute champion (the strongest section's winner); with one, a
        round robin's or a Swiss's first place (shared: a play-off between them); None for a
        cup or a Scheveningen event of one section. The rule and its source:
        :func:`tournaments.standings.sections.champion_of`."""
        return core.champion_of(
            self.players, self.matches, self.options, adjustments=self.adjustments,
            categories=self.categories(), tables=self.standings,
            finished=self.tournament.status == TournamentStatus.FINISHED,
        )

    def categories(self) -> dict[int, int]:
        """Entry id → the category it plays in (as entered)."""
        return {e.id: e.category for e in self.entries.values()}

    def places(self) -> dict[int, str]:
        out: dict[int, str] = {}
        for table in self.standings.values():
            out.update(table.places())
        return out

    def current_rounds(self) -> list[RoundInfo]:
        """The latest published (or finished) round of each section."""
        latest: dict[str, RoundInfo] = {}
        for rnd in self.rounds:  # published and finished rounds only (see load_event)
            best = latest.get(rnd.section)
            if best is None or rnd.number > best.number:
                latest[rnd.section] = rnd
        return [latest[s] for s in self.sections if s in latest]

    def round_numbers(self) -> list[int]:
        return sorted({r.number for r in self.rounds})

    def pairings_of_round(self, round_ids: Iterable[int]) -> list[Pairing]:
        """These rounds' pairings; made from their rows alone while no page asked for all
        (the hall shows the current round: 5,000 of 25,000 at 10,000 players)."""
        wanted = set(round_ids)
        if "pairings" in self.__dict__:
            return [p for p in self.pairings if p.round_id in wanted]
        return [_pairing(row) for row in self.pairing_rows if row[1] in wanted]

    def pairings_of_entry(self, entry_id: int) -> list[Pairing]:
        return [p for p in self.pairings if entry_id in (p.a, p.b)]

    def export_info(self) -> TournamentInfo:
        t = self.tournament
        return TournamentInfo(
            name_ru=t.name,
            name_en=t.name,
            slug=t.slug,
            starts_on=t.starts_on,
            ends_on=t.ends_on,
            venue=t.venue,
            sections=dict(self.sections),
        )

    def export_options(
        self, language: str = "ru", prizes: dict[int, int] | None = None
    ) -> ExportOptions:
        return ExportOptions(
            language="en" if language.startswith("en") else "ru",
            standings=self.options,
            adjustments=tuple(self.adjustments),
            prizes=prizes or {},
            categories=self.categories(),
            event_finished=self.tournament.status == TournamentStatus.FINISHED,
        )

    def legend(self) -> list[tuple[str, str, str]]:
        """(mark, player's name pair, reason) for every adjustment, in the order they were made."""
        return [
            (a.mark, self.entries[a.player].name_ru, a.reason)
            for a in self.adjustments
            if a.player in self.entries
        ]


def standings_options(tournament: Tournament) -> tuple[core.StandingsOptions, list[Problem]]:
    """The tournament's chosen tie-breaks (empty → the system's default), checked by the core.

    An unusable choice does not break the public pages: the default order is
    used instead and the problems are returned, so the page can say why.
    """
    system = core.System(tournament.system)
    found: list[Problem] = []
    try:
        keys = parse_tiebreaks(tournament.tiebreaks).keys
    except RuleViolation as err:
        found.extend(err.problems)
        keys = ()
    # The keys parse_tiebreaks accepted (or the default order) always resolve: the same
    # tiebreak_problems() check, and the score basis is then one of SCORE_BASES.
    options = core.StandingsOptions(
        system=system, tiebreaks=keys, total_rounds=tournament.rounds_planned,
        cycles=_cycles(tournament),
    )
    return core.resolve_options(options), found


def _cycles(tournament: Tournament) -> int:
    """A round robin's cycles (FIDE C.06's "half of his games" counts them), 1 otherwise."""
    if tournament.system != "round_robin" or not isinstance(tournament.pairing_options, dict):
        return 1
    value = tournament.pairing_options.get("cycles", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def load_event(
    tournament: Tournament, *, with_clubs: bool = False, rounds: Collection[int] | None = None
) -> Event:
    """Read the whole tournament with 3 queries (+1 for gammon counts, +1 for clubs).

    The number of queries depends only on the options, never on the number of
    players, rounds or matches. ``rounds``: read the matches of these round ids only
    (every round is still listed) — for a page of those rounds' pairings, which is
    cached by their versions alone; such an event's standings are not the event's.
    """
    return load_events([tournament], with_clubs=with_clubs, rounds=rounds)[tournament.pk]


def load_events(
    tournaments: Sequence[Tournament],
    *,
    with_clubs: bool = False,
    rounds: Collection[int] | None = None,
) -> dict[int, Event]:
    """Several tournaments at once with the same 3 (+1, +1) queries as one (by tournament id).

    For pages that need the standings of many events (a player's profile lists
    their place in each): the query count does not grow with the number of events.
    """
    if not tournaments:
        return {}
    with few_collections(kept=True):
        return _load_events(tournaments, with_clubs, rounds)


def _load_events(
    tournaments: Sequence[Tournament], with_clubs: bool, rounds: Collection[int] | None
) -> dict[int, Event]:
    options = {t.pk: standings_options(t) for t in tournaments}
    if len(tournaments) == 1:  # a page of one event: what did not change since is kept
        (only,) = tournaments
        return {only.pk: _load_one(only, options[only.pk], with_clubs, rounds)}
    by_id = {t.pk: t for t in tournaments}
    ids = list(by_id)
    entry_rows, round_rows, adjustment_rows = _rows_but_matches(ids, {t.pk for t in tournaments if is_knockout(t)})
    matches = Match.objects.filter(round__tournament_id__in=ids)
    if rounds is not None:
        matches = matches.filter(round_id__in=list(rounds))
    match_rows = _group(_match_rows(matches, "round__tournament_id"))
    with_gammons = [tid for tid, (opts, _p) in options.items() if "gammons" in opts.tiebreaks]
    gammons = _gammon_counts(with_gammons) if with_gammons else {}
    clubs: dict[int, str] = {}
    if with_clubs:
        clubs = _clubs(ids)
    return {
        tid: _assemble(
            by_id[tid],
            *options[tid],
            _entry_part(entry_rows.get(tid, [])),
            round_rows.get(tid, []),
            _by_round(match_rows.get(tid, [])),
            gammons,
            clubs,
            adjustment_rows.get(tid, []),
        )[0]
        for tid in ids
    }


#: The columns of a match row the pages and the standings read (after any grouping column).
MATCH_COLUMNS = (
    "id", "round_id", "table", "entry_a_id", "entry_b_id", "score_a", "score_b", "winner",
    "result_status", "match_length", "result_kind",
)  # fmt: skip


def _match_rows(matches: QuerySet, *first: str) -> list[tuple]:
    """The public matches' rows, ``first`` columns before :data:`MATCH_COLUMNS`, in the
    order the pages list them (round, table)."""
    ordered = public_matches(matches).order_by("round__number", "table", "id")
    return plain_rows(ordered.values_list(*first, *MATCH_COLUMNS))


def _by_round(match_rows: list[tuple]) -> dict[int, list[tuple]]:
    """Match rows (as :data:`MATCH_COLUMNS`) by their round id, each round's in its order."""
    out: dict[int, list[tuple]] = {}
    for row in match_rows:
        out.setdefault(row[1], []).append(row)
    return out


#: (tournament id, round id) → ((tournament version, round rows' version), the round's
#: :data:`RoundPart`): the latest read of each round, kept per process. A 10,000-player
#: round is about 2 MB (shared with the kept events, :func:`tournaments.cache.kept_event`).
_kept_rounds = page_cache.KeptInProcess(256)


def _load_one(
    tournament: Tournament,
    options: tuple[core.StandingsOptions, list[Problem]],
    with_clubs: bool,
    rounds: Collection[int] | None,
) -> Event:
    """One event, reading from the database only what changed since this process last read it.

    A result (reported, confirmed, disputed) moves on its round's rows' version alone
    (:func:`tournaments.cache.invalidate_results`), so the next read takes the other rounds'
    matches as this process made them and reads one round again: at 10,000 players, 5,000
    rows instead of 25,000 after a result in round 5 (issue 32). Anything else (an entry, a
    round published, rows changed in bulk) moves the tournament's version on, and every
    round is read again.
    """
    tid = tournament.pk
    (entry_rows, round_rows, adjustment_rows), entry_part, version = _kept_rows(
        tid, {tid} if is_knockout(tournament) else ()
    )
    # A game saved alone moves on the results' version, not its round's: where the gammons
    # count (a tie-break), every round is read again.
    with_gammons = "gammons" in options[0].tiebreaks
    wanted = [row[0] for row in round_rows if rounds is None or row[0] in rounds]
    versions = {} if with_gammons else page_cache.round_row_versions(wanted)
    kept: dict[int, RoundPart] = {}
    for rid in versions:
        found = _kept_rounds.peek((tid, rid))
        if found is not None and found[0] == (version, versions[rid]):
            kept[rid] = found[1]
    fresh = [rid for rid in wanted if rid not in kept]
    match_rows = _by_round(_match_rows(Match.objects.filter(round_id__in=fresh))) if fresh else {}
    gammons = _gammon_counts([tid], fresh) if with_gammons and fresh else {}
    clubs = _clubs([tournament.pk]) if with_clubs else {}
    event, built = _assemble(
        tournament, *options, entry_part, round_rows, match_rows, gammons, clubs, adjustment_rows, kept
    )
    for rid in versions.keys() & built.keys():
        _kept_rounds.put((tid, rid), ((version, versions[rid]), built[rid]))
    return event


#: What :func:`_entry_part` makes of a tournament's entry rows: sections met, entries, the
#: round each entry joined, and the core's players.
EntryPart = tuple[dict[str, str], dict[int, EntryInfo], dict[int, int | None], list[core.Player]]
#: One round's matches as :func:`_assemble` makes them: the pairings' fields and the core's matches.
RoundPart = tuple[list[tuple], list[core.Match]]
#: (tournament id, cache version) → its rows but the matches and their entry part, per process.
_kept = page_cache.KeptInProcess(64)


def _kept_rows(
    tournament_id: int, cups: Collection[int] = ()
) -> tuple[tuple[list, list, list], EntryPart, int]:
    """A tournament's entry, round and adjustment rows, the entries made into the core's
    players, and the cache version they are kept under: kept in this process under the
    tournament's cache version (which every saved player, entry, section, round or
    adjustment moves on), so a page rebuilt after a result reads and builds only matches.
    """
    number = page_cache.version(tournament_id)

    def build() -> tuple[tuple[list, list, list], EntryPart]:
        rows = page_cache.cached_fragment(
            tournament_id, "event-rows", lambda: _rows_but_matches([tournament_id], cups), rounds=()
        )
        own = tuple(part.get(tournament_id, []) for part in rows)
        return own, _entry_part(own[0])

    own, part = _kept.get((tournament_id, number), build)
    return own, part, number


def _rows_but_matches(ids: list[int], cups: Collection[int] = ()) -> tuple[dict, dict, dict]:
    """Entries, public rounds and adjustments by tournament id (3 queries; 4 when ``ids`` mix
    cups and other systems: a cup's round rows end with its pairings' brackets — which
    bracket each table plays in, :mod:`tournaments.standings.cup` ranks by it — the others'
    with the requested byes).

    They change only with the tournament's cache version (a saved player, entry,
    section, round or adjustment bumps it), so :func:`load_events` keeps them in the
    cache for a page of one event: a page rebuilt after a result reads only the matches.
    """
    entry_rows = _group(plain_rows(
        Entry.objects.filter(tournament_id__in=ids)
        .order_by("section__order", "section__name", "draw_number", "id")
        .values_list(
            "tournament_id",
            "id",
            "player_id",
            "draw_number",
            "status",
            "section_id",
            "section__name",
            "player__last_name",
            "player__first_name",
            "player__last_name_latin",
            "player__first_name_latin",
            # The category the entry was made in (issue 35): the player's later changes leave it.
            Coalesce("category", "player__category"),
            "seed_rating",
            "player__rating",
            "joined_round",
            "removal",
        )
    ))
    round_rows: dict[int, list[tuple]] = {}
    others = [tid for tid in ids if tid not in cups]
    # The explanation's key named as a transform, not a path: a path ("…__data__byes") is
    # first tried as a join, and the error Django keeps from that try holds the frames of
    # the whole read (the event built in them included) in a reference cycle.
    byes, pairings = KeyTransform("byes", "explanation_row__data"), KeyTransform("pairings", "explanation_row__data")
    for group, last in ((others, byes), ([t for t in ids if t in cups], pairings)):
        if group:
            round_rows.update(_group(
                public_rounds(Round.objects.filter(tournament_id__in=group))
                .order_by("section__order", "section__name", "number")
                .values_list(
                    "tournament_id", "id", "number", "section_id", "section__name", "status",
                    "match_length", last,
                )
            ))  # fmt: skip
    adjustment_rows = _group(
        StandingsAdjustment.objects.filter(tournament_id__in=ids)
        .order_by("created_at", "id")
        .values_list("tournament_id", "entry_id", "points", "reason")
    )
    return entry_rows, round_rows, adjustment_rows


def plain_rows(rows: QuerySet) -> list[tuple]:
    """A ``values_list`` query's rows as the database driver returns them.

    Django runs a converter on every value of a column that has one (a score's
    :class:`~tournaments.models.ScoreField` makes 5.0 the whole number 5); over the
    25,000 match rows of a 10,000-player Swiss that was a third of the read (issue 32).
    The readers here take a score as either (:func:`_number`, :func:`_score_shown`).
    """
    try:
        sql, params = rows.query.sql_with_params()
    except EmptyResultSet:  # a filter that can match nothing (``id__in=[]``): no query at all
        return []
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _group(rows) -> dict[int, list[tuple]]:
    """Rows whose first column is the tournament id, grouped by it (the rest of each row kept)."""
    out: dict[int, list[tuple]] = {}
    for row in rows:
        out.setdefault(row[0], []).append(row[1:])
    return out


def _entry_part(entry_rows: list[tuple]) -> EntryPart:
    """The entry rows as sections, entries, the round each joined, and the core's players."""
    sections: dict[str, str] = {}
    entries: dict[int, EntryInfo] = {}
    joined: dict[int, int | None] = {}
    players: list[core.Player] = []
    for (
        eid,
        pid,
        draw,
        status,
        section_id,
        section_name,
        last,
        first,
        last_lat,
        first_lat,
        category,
        seed_rating,
        rating,
        joined_round,
        removal,
    ) in entry_rows:
        key = _section_key(section_id)
        sections.setdefault(key, section_name or "")
        name_ru = f"{last} {first}".strip()
        name_latin = f"{first_lat} {last_lat}".strip()
        rating_value = seed_rating if seed_rating is not None else rating
        entries[eid] = EntryInfo(
            eid, pid, draw, status, key, name_ru, name_latin, category, rating_value, removal
        )
        joined[eid] = joined_round
        players.append(
            core.Player(
                id=eid,
                name_ru=name_ru,
                name_latin=name_latin,
                section=key,
                draw_number=draw,
                rating=rating_value,
                withdrawn=status == EntryStatus.WITHDRAWN,
                removal=removal or "",
            )
        )
    return sections, entries, joined, players


def _assemble(
    tournament: Tournament,
    options: core.StandingsOptions,
    problems: list[Problem],
    entry_part: EntryPart,
    round_rows: list[tuple],
    match_rows: dict[int, list[tuple]],
    gammons: dict[int, tuple[int, int]],
    all_clubs: dict[int, str],
    adjustment_rows: list[tuple] = (),
    kept: dict[int, RoundPart] | None = None,
) -> tuple[Event, dict[int, RoundPart]]:
    """One tournament's :class:`Event` (no query) from its entries made into players (copied
    here: they may be kept), its round rows, and each round's match rows — or that round's
    part as an earlier read made it (``kept``); with the parts this call made."""
    sections, entries, joined, players = entry_part
    sections, entries, joined, players = dict(sections), dict(entries), dict(joined), list(players)
    rounds: list[RoundInfo] = []
    byes_of: dict[int, list] = {}
    brackets: dict[tuple[int, int | None], tuple[str, int | None]] = {}
    cup = is_knockout(tournament)
    for rid, number, section_id, section_name, status, length, extra in round_rows:
        key = _section_key(section_id)
        sections.setdefault(key, section_name or "")
        rounds.append(RoundInfo(rid, number, key, status, length))
        rows = extra if isinstance(extra, list) else []
        if cup:
            brackets.update(_brackets(rid, rows))
        else:
            byes_of[rid] = rows
    kept = kept or {}
    built: dict[int, RoundPart] = {}
    pairing_rows: list[tuple] = []
    matches: list[core.Match] = []
    for rnd in sorted(rounds, key=lambda r: r.number):  # the pages' order: by round, then table
        part = kept.get(rnd.id)
        if part is None:
            part = built[rnd.id] = _round_part(rnd, match_rows.get(rnd.id, ()), entries, gammons, brackets)
        pairing_rows += part[0]
        matches += part[1]
    if tournament.system == "swiss":
        matches += _credited_byes(tournament, entries, joined, rounds, byes_of)
    clubs = {}
    if all_clubs:
        clubs = {e.player_id: all_clubs[e.player_id] for e in entries.values() if e.player_id in all_clubs}
    if clubs:
        players = [replace(p, club=clubs.get(entries[p.id].player_id, "")) for p in players]
    if not sections:
        sections[NO_SECTION] = ""
    event = Event(
        tournament=tournament,
        options=options,
        option_problems=problems,
        sections=sections,
        entries=entries,
        players=players,
        rounds=rounds,
        pairing_rows=pairing_rows,
        matches=matches,
        clubs=clubs,
        adjustments=[
            core.Adjustment(entry_id, _score(points), reason)
            for entry_id, points, reason in adjustment_rows
            if entry_id in entries
        ],
    )
    return event, built


def _round_part(
    rnd: RoundInfo,
    match_rows: Iterable[tuple],
    entries: dict[int, EntryInfo],
    gammons: dict[int, tuple[int, int]],
    brackets: dict[tuple[int, int | None], tuple[str, int | None]],
) -> RoundPart:
    """One round's matches (rows as :data:`MATCH_COLUMNS`) as pairing fields and core matches;
    a match of an entry no longer in the event is left out."""
    pairing_rows: list[tuple] = []
    matches: list[core.Match] = []
    for mid, rid, table, a, b, score_a, score_b, winner, result_status, length, kind in match_rows:
        if a not in entries or (b is not None and b not in entries):
            continue
        pairing_rows.append((
            mid, rid, rnd.number, rnd.section, table, a, b, score_a, score_b, winner,
            result_status, length, kind,
        ))  # fmt: skip
        match = _core_match(
            rnd.number, table, a, b, score_a, score_b, winner, result_status, kind, gammons.get(mid)
        )
        if brackets and (rid, table) in brackets:
            bracket, bracket_round = brackets[(rid, table)]
            match = replace(match, bracket=bracket, bracket_round=bracket_round)
        matches.append(match)
    return pairing_rows, matches


def _brackets(round_id: int, pairings: list) -> dict[tuple[int, int | None], tuple[str, int | None]]:
    """(round id, table) → (bracket, round in it) of a cup's stage, as its pairing recorded
    them; a table the pairing did not record (entered by hand) stays a main-draw match."""
    out: dict[tuple[int, int | None], tuple[str, int | None]] = {}
    for row in pairings:
        if isinstance(row, dict) and isinstance(row.get("bracket"), str):
            number = row.get("bracket_round")
            out[(round_id, row.get("table"))] = (row["bracket"], number if isinstance(number, int) else None)
    return out


def _score(value: Decimal) -> core.Score:
    """A stored decimal as the core's score: whole numbers as ints, halves as floats."""
    return int(value) if value == int(value) else float(value)


def to_minor(amount: Decimal | None) -> int | None:
    """Money in minor units (kopecks): the prize core counts in whole units so shares add up."""
    return None if amount is None else int((amount * 100).to_integral_value())


def from_minor(minor: int) -> Decimal:
    return (Decimal(minor) / 100).quantize(Decimal("0.01"))


@dataclass(frozen=True)
class PrizeAwards:
    """Who gets what (entry id → amount), and what was wrong with the prize table, if anything."""

    amounts: dict[int, Decimal]
    problems: list[Problem]
    table: list[Prize]

    @property
    def paid(self) -> Decimal:
        return sum(self.amounts.values(), Decimal("0.00"))


def prize_awards(event: Event) -> PrizeAwards:
    """The prize table applied to the final standings (1 query), by the organiser's split rule.

    Prizes with a section go to that section's table; prizes without one to the
    whole tournament's table (in a multi-section event: everyone ranked together,
    as for the absolute champion).
    """
    tournament = event.tournament
    table = list(Prize.objects.filter(tournament=tournament).order_by("section_id", "place"))
    fund = to_minor(tournament.prize_fund)
    by_section: dict[str, dict[int, int]] = {}
    for prize in table:
        key = _section_key(prize.section_id)
        by_section.setdefault(key, {})[prize.place] = to_minor(prize.amount) or 0
    everything = {
        (key, place): amount for key, places in by_section.items() for place, amount in places.items()
    }
    found = prize_problems({i: a for i, a in enumerate(everything.values(), start=1)}, fund)
    amounts: dict[int, Decimal] = {}
    if found:
        return PrizeAwards(amounts, found, table)
    for key, prizes in by_section.items():
        if key == NO_SECTION and event.multi_section:
            standings = event.champion.overall if event.champion else None
        else:
            standings = event.standings.get(key)
        if standings is None:
            continue
        for entry_id, minor in award_prizes(standings, prizes, tournament.prize_split).items():
            amounts[entry_id] = amounts.get(entry_id, Decimal("0.00")) + from_minor(minor)
    return PrizeAwards(amounts, [], table)
def _credited_byes(
    tournament: Tournament,
    entries: dict[int, EntryInfo],
    joined: dict[int, int | None],
    rounds: list[RoundInfo],
    byes_of: dict[int, list],
) -> list[core.Match]:
    """Byes a Swiss scores without a match row: requested in advance (the points stored
    with the round's explanation, ``half_bye_points``) and a late entry's missed rounds
    (:func:`~tournaments.pairing.history.missed_rounds`) — the same credit the
    pairing gave the player's score group."""
    out: list[core.Match] = []
    by_draw = {
        (e.section, e.draw_number): e.id for e in entries.values() if e.draw_number is not None
    }
    last: dict[str, int] = {}
    for rnd in rounds:
        last[rnd.section] = max(last.get(rnd.section, 0), rnd.number)
        for bye in byes_of.get(rnd.id, ()):
            eid = by_draw.get((rnd.section, bye.get("player")))
            if bye.get("kind") == "requested" and eid is not None:
                out.append(_bye(rnd.number, eid, float(bye.get("points") or 0)))
    try:
        options = parse_options("swiss", tournament.pairing_options)
    except RuleViolation:
        return out  # the settings page shows what is wrong; no credit meanwhile
    for eid, joined_round in joined.items():
        for number in missed_rounds(joined_round):
            if number <= last.get(entries[eid].section, 0):
                out.append(_bye(number, eid, float(options.late_entry_points)))
    return out


def _bye(number: int, entry_id: int, points: float) -> core.Match:
    return core.Match(round=number, player_a=entry_id, player_b=None, winner=entry_id, bye_result=points)


def _section_key(section_id: int | None) -> str:
    return NO_SECTION if section_id is None else str(section_id)


def _core_match(
    number: int, table: int | None, a: int, b: int | None, score_a, score_b, winner: str,
    status: str, kind: str, gammons: tuple[int, int] | None,
) -> core.Match:
    """A result that stands counts (confirmed, or confirmed then disputed, until the ruling);
    a bye counts as soon as its round is published. Made straight from the match's row, not
    through its :class:`Pairing` (the standings alone never need those)."""
    if b is None:  # a bye voided (a disqualification whose past results go) counts for nobody
        return core.Match(number, a, None, _number(score_a), 0, a, table=table, kind=kind)
    if kind == _VOID:
        return core.Match(number, a, b, table=table, kind=kind)
    if score_a is None or score_b is None or not result_stands(status, score_a, score_b):
        return core.Match(number, a, b, kind=kind, status=_PENDING, table=table)
    return core.Match(
        number, a, b, _number(score_a), _number(score_b),
        a if winner == "a" else b if winner == "b" else None,
        gammons[0] if gammons else None, gammons[1] if gammons else None, _FINISHED, table, None, kind,
    )  # fmt: skip


#: Looked up once (an enum member read off its class costs more than the comparison).
_VOID, _PENDING, _FINISHED = ResultKind.VOID, core.MatchStatus.PENDING, core.MatchStatus.FINISHED


def _number(value) -> core.Score:
    """A stored score (whole, or a half: an int, a Decimal or a float as the driver gives
    it) as the core's plain number."""
    if value is None:
        return 0
    if type(value) is int:
        return value
    whole = int(value)
    return whole if whole == value else float(value)


def _pairing(row: tuple) -> Pairing:
    """A pairing from its row in :attr:`Event.pairing_rows`."""
    mid, rid, number, section, table, a, b, score_a, score_b, *rest = row
    return Pairing(mid, rid, number, section, table, a, b, _score_shown(score_a), _score_shown(score_b), *rest)


def _score_shown(value):
    """A stored score as the model reads it (:class:`~tournaments.models.ScoreField`): an int
    when whole, else the exact Decimal half."""
    return value if value is None or type(value) is int else ScoreField.tidy(value)


def _gammon_counts(
    tournament_ids: Sequence[int], round_ids: Sequence[int] | None = None
) -> dict[int, tuple[int, int]]:
    """Per match with a recorded ledger (of these rounds only, if given): games each side won
    by a gammon or more (1 query)."""
    games = Game.objects.filter(match__round__tournament_id__in=tournament_ids)
    if round_ids is not None:
        games = games.filter(match__round_id__in=round_ids)
    rows = games.values("match_id", "winner").annotate(gammons=Count("id", filter=Q(kind__in=GAMMON_KINDS))).order_by()
    out: dict[int, list[int]] = {}
    for row in rows:
        counts = out.setdefault(row["match_id"], [0, 0])
        if row["winner"] == "a":
            counts[0] += row["gammons"]
        elif row["winner"] == "b":
            counts[1] += row["gammons"]
    return {mid: (a, b) for mid, (a, b) in out.items()}


def _clubs(tournament_ids: Sequence[int]) -> dict[int, str]:
    """Each entered player's current club (the first open membership by club name), one query.

    The players are picked by a subquery of the entries: a 100,000-player event's ids sent one
    by one passed PostgreSQL's limit of 65,535 parameters (issue 50)."""
    out: dict[int, str] = {}
    entered = Entry.objects.filter(tournament_id__in=list(tournament_ids)).values("player_id")
    rows = (
        Membership.objects.filter(Membership.current_q(), player_id__in=entered)
        .order_by("club__name")
        .values_list("player_id", "club__name")
    )
    for pid, club in rows:
        out.setdefault(pid, club)
    return out


def requested_byes(event: Event, round_number: int, section: str, language: str) -> list[tuple[str, str]]:
    """Who sits round ``round_number`` of ``section`` (a section key) out with points on their own
    request (a half-point bye asked for in advance), as (name, points): announced with the round
    like the pairing bye is, so nobody looks for a table they do not have. The public pairings
    and the round's API resource both show it from here (issue 27)."""
    return [
        (event.entries[m.player_a].name(language), core.format_score(m.bye_result))
        for m in event.matches
        if m.player_b is None and m.bye_result is not None and m.round == round_number
        and m.player_a in event.entries and event.entries[m.player_a].section == section
    ]


def section_key(section_id: int | None) -> str:
    """The key :class:`Event` files a section's entries and rounds under."""
    return _section_key(section_id)


def normalize_name(text: str) -> str:
    """Case- and ё/е-insensitive form for the "find my table" search (Cyrillic or Latin)."""
    text = unicodedata.normalize("NFC", text).casefold()
    return " ".join(text.replace("ё", "е").split())


def is_number_search(query: str) -> bool:
    """A query of digits alone is a draw number, not part of a name (:func:`find_entries`)."""
    return query.strip().isdigit()


def find_entries(event: Event, query: str) -> list[int]:
    """Entries whose Cyrillic or Latin name (either word order) contains every word of ``query``;
    a query of digits alone is a draw number (a player finds their table by their number)."""
    if is_number_search(query):
        number = int(query)
        return [e.id for e in event.entries.values() if e.draw_number == number]
    words = normalize_name(query).split()
    if not words:
        return []
    found = []
    for e in event.entries.values():
        haystack = normalize_name(f"{e.name_ru} {e.name_latin}")
        if all(w in haystack for w in words):
            found.append(e.id)
    return found


def is_knockout(tournament: Tournament) -> bool:
    return tournament.system == CompetitionSystem.KNOCKOUT
