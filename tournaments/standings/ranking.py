"""Ranking players by the organiser's ordered criteria, with shared places for real ties.

Ranking is successive refinement: everyone starts in one tied group and each
criterion in turn splits every group that is still tied. A later criterion can
therefore only order players an earlier one left level — it never overturns an
earlier decision — and whoever is still level at the end shares a place
("3–4"), listed by draw number.

A round robin does not count a withdrawn player who played less than half of his
games (:func:`not_counted`, FIDE C.06); values are exact decimals (:func:`_exact`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.result_kinds import UNPLAYED, ResultKind

from . import cup, problems
from .ledger import Ledger
from .metrics import Metric, default_tiebreaks, get_metric, tiebreak_problems
from .order import MAIN_SCORES, main_score_first
from .types import Adjustment, Match, Player, StandingsOptions, System

SCORE_BASES = MAIN_SCORES


@dataclass(slots=True)
class StandingRow:
    """One line of the standings: where the player finished and the numbers behind it.

    ``values`` holds every chosen metric; head-to-head is ``None`` for players it
    was never asked to separate. Read-only by convention, not ``frozen`` (a frozen
    dataclass is five times slower to build: a row per player, issue 32).
    """

    player: Player
    place: int
    place_to: int
    values: Mapping[str, Decimal | None]
    adjustments: tuple[Adjustment, ...] = ()
    """The rulings that changed this player's values (shown with their mark and reason)."""
    counted: bool = True
    """False: a round robin's withdrawn player who played less than half of his games
    (FIDE C.06, :func:`not_counted`) — listed last, without a place or values; his games
    stay in the crosstable."""
    excluded: bool = False
    """True: disqualified or removed by a sanction (:attr:`Player.excluded`) — listed after
    the placed players, with his values but no place, outside every shared range, no prize."""

    @property
    def placed(self) -> bool:
        """The row has a place (and may win a prize): counted and not disqualified."""
        return self.counted and not self.excluded

    @property
    def adjusted(self) -> frozenset[str]:
        """Keys of the metrics a ruling changed for this player (the pages mark them)."""
        return frozenset(a.metric for a in self.adjustments if a.metric)

    @property
    def shared(self) -> bool:
        return self.place_to > self.place

    @property
    def place_label(self) -> str:
        if not self.placed:
            return "—"
        return f"{self.place}–{self.place_to}" if self.shared else str(self.place)


@dataclass(frozen=True, slots=True)
class Standings:
    section: str
    rows: tuple[StandingRow, ...]
    options: StandingsOptions
    index: Mapping[int, int] = field(default_factory=dict)
    """Player id → position in ``rows`` (filled by :func:`compute_standings`)."""
    bracket: str = ""
    """The cup's side bracket this table ranks (``consolation`` …); empty: the event's table
    (in a cup, the main draw's)."""
    side_tables: tuple[Standings, ...] = ()
    """A cup's side brackets, each ranked among its own players (:mod:`.cup`); the pages,
    the API and the workbook show them as tables of their own, after the main one."""

    @property
    def metrics(self) -> list[Metric]:
        return [get_metric(k) for k in self.options.tiebreaks]

    @property
    def order(self) -> list[int]:
        return [r.player.id for r in self.rows]

    def row(self, player_id: int) -> StandingRow:
        """The row of one player (KeyError if they are not in this table)."""
        if self.index:
            return self.rows[self.index[player_id]]
        for r in self.rows:
            if r.player.id == player_id:
                return r
        raise KeyError(player_id)

    def places(self) -> dict[int, str]:
        return {r.player.id: r.place_label for r in self.rows}


class RowValues(Mapping[str, Decimal | None]):
    """One row's metric values, as exact decimals (:func:`_exact`), read from the table's
    values when asked: a page shows 100 rows of a 10,000-player table, and making 50,000
    decimals up front was a sixth of its cold build (issue 32)."""

    __slots__ = ("_player", "_sources")

    def __init__(self, player: int, sources: Mapping[str, Mapping[int, float] | None]) -> None:
        self._player = player
        self._sources = sources

    def __getitem__(self, key: str) -> Decimal | None:
        source = self._sources[key]
        return None if source is None else _exact(source.get(self._player))

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def __repr__(self) -> str:
        return repr(dict(self))


def resolve_options(options: StandingsOptions) -> StandingsOptions:
    """Fill in the system's defaults, put the main score first (:func:`~.order.main_score_first`)
    and refuse criteria that do not exist or repeat."""
    keys = main_score_first(options.tiebreaks, options.system) or default_tiebreaks(options.system)
    found = tiebreak_problems(keys)
    basis = options.score_basis or _default_basis(keys, options.system)
    if basis not in SCORE_BASES:
        found.append(problems.bad_score_basis(basis))
    if found:
        raise RuleViolation(found)
    return replace(options, tiebreaks=tuple(keys), score_basis=basis)


def _default_basis(keys: Sequence[str], system: System) -> str:
    """The score opponents are measured by (Buchholz, Sonneborn-Berger, …) when not set.

    Taken from the FIRST criterion only, else from the system (the book ranks a
    round robin by points scored, a Swiss by match wins), so that appending a
    tie-break can never change the values of the criteria before it.
    """
    if keys and keys[0] in SCORE_BASES:
        return keys[0]
    return "points" if system == System.ROUND_ROBIN else "wins"


def check_matches(players: Iterable[Player], matches: Iterable[Match]) -> list[Problem]:
    """Problems that would make the standings meaningless (unknown players, self-pairings …)."""
    ids = {p.id for p in players}
    found: list[Problem] = []
    for m in matches:
        if m.round < 1:
            found.append(problems.bad_round(m.round))
        for pid in (m.player_a, m.player_b):
            if pid is not None and pid not in ids:
                found.append(problems.unknown_player(m.round, pid))
        if m.player_a == m.player_b:
            found.append(problems.plays_self(m.round, m.player_a))
        if m.winner is not None and m.winner not in (m.player_a, m.player_b):
            found.append(problems.bad_winner(m.round, m.winner))
    return found


def not_counted(players: Sequence[Player], matches: Sequence[Match], cycles: int = 1) -> set[int]:
    """The withdrawn players of a round robin whose results do not count in the standings.

    FIDE Handbook C.06 (Tournament Rules), V. The conduct of the players, article 5.4.1,
    on a player who withdraws from a round-robin
    tournament: when he has played less than half of his games, his results are not
    counted in the standings (they stay in the crosstable, for the record); with half or
    more they count, the unplayed games as forfeits. This is about leaving, not a
    sanction: a disqualification with its past results voided is the director's ruling
    (``removal``), not this rule.

    "His games" are the schedule's: every other player of the schedule (whoever has a
    match or a free round in it), ``cycles`` times. "Played" means met over the board —
    a forfeit or a void match was not played.
    """
    ids = {p.id for p in players}
    seated: set[int] = set()
    played: Counter[int] = Counter()
    for m in matches:
        if m.player_a not in ids or (m.player_b is not None and m.player_b not in ids):
            continue
        seated.add(m.player_a)
        if m.player_b is None:
            continue
        seated.add(m.player_b)
        if m.finished and m.kind not in UNPLAYED and m.kind != ResultKind.VOID:
            played[m.player_a] += 1
            played[m.player_b] += 1
    scheduled = (len(seated) - 1) * max(cycles, 1)
    return {p.id for p in players if p.withdrawn and not p.excluded and 2 * played[p.id] < scheduled}


def _exact(value: float | None) -> Decimal | None:
    """A metric value as an exact decimal: 217.52, not 217.51999999999998; 27, not 27.0."""
    if value is None:
        return None
    return _decimal(float(value) + 0.0)


@lru_cache(maxsize=4096)
def _decimal(value: float) -> Decimal:
    """Kept per value: a table's values are few (whole and half scores, their sums), and a
    10,000-player table asks for 50,000 of them (issue 32)."""
    number = Decimal(repr(value))
    return number.quantize(Decimal(1)) if number == number.to_integral_value() else number


def _display_key(p: Player) -> tuple[bool, int, str, int]:
    return (p.draw_number is None, p.draw_number or 0, p.name_ru, p.id)


def rank(
    ledger: Ledger, metrics: Sequence[Metric], groups: list[list[int]] | None = None
) -> tuple[list[list[int]], dict[str, dict[int, float]]]:
    """Tied groups in final order, plus the values of group-only metrics (head-to-head).

    ``groups``: an order already decided (a cup's bracket) for the metrics to refine;
    by default everyone starts level, listed by draw number."""
    if groups is None:
        players = sorted(ledger.players.values(), key=_display_key)
        groups = [[p.id for p in players]] if players else []
    local: dict[str, dict[int, float]] = {}
    for metric in metrics:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            parts = metric.split(group, ledger)
            if not metric.global_value:
                local.setdefault(metric.key, {}).update(metric.group_values(group, ledger))
            refined.extend(parts)
        groups = refined
    return groups, local


def compute_standings(
    players: Iterable[Player],
    matches: Iterable[Match],
    options: StandingsOptions | None = None,
    *,
    section: str | None = None,
    adjustments: Iterable[Adjustment] = (),
) -> Standings:
    """Rank ``players`` (only ``section``'s, if given) by their finished ``matches``.

    ``adjustments`` (penalties of the director or the jury) are added to the
    metric each names; the rows carry them so the pages can mark the values.

    A cup (:attr:`System.KNOCKOUT`) is placed by its bracket first: the main draw
    decides the table and each side bracket gets a table of its own (:mod:`.cup` has
    the convention and its sources); only criteria the organiser lists besides the
    stage may then split a shared place (the default lists none).

    Raises :class:`RuleViolation` for unknown or repeated criteria; matches with
    players outside the group are ignored, so one call per section is enough.
    """
    opts = resolve_options(options or StandingsOptions())
    group_players = [p for p in players if section is None or p.section == section]
    name = section if section is not None else (group_players[0].section if group_players else "")
    if opts.system != System.KNOCKOUT:
        return _table(group_players, list(matches), opts, adjustments, name)
    matches = list(matches)
    main = _table(
        group_players, [m for m in matches if cup.in_main_draw(m)], opts, adjustments, name,
        places=cup.main_draw_keys,
    )  # fmt: skip
    sides = []
    for bracket, own in cup.side_brackets(matches):
        seated = cup.players_of(own)
        members = [p for p in group_players if p.id in seated]
        if members:
            table = _table(members, own, opts, (), name, places=cup.bracket_keys)
            sides.append(replace(table, bracket=bracket))
    return replace(main, side_tables=tuple(sides))


def _table(
    group_players: list[Player],
    matches: list[Match],
    opts: StandingsOptions,
    adjustments: Iterable[Adjustment],
    name: str,
    *,
    places: cup.KeyFunction | None = None,
) -> Standings:
    """One table: ranked by the criteria, or — ``places`` given, in a cup — by the bracket
    keys it returns, then by whatever criteria the organiser listed besides the stage (none
    by default: equal keys share a place). The stage shown is read off the key, so players
    sharing a place show the same stage."""
    left_out: list[Player] = []
    if opts.system == System.ROUND_ROBIN and places is None:
        gone = not_counted(group_players, matches, opts.cycles)
        if gone:
            left_out = sorted((p for p in group_players if p.id in gone), key=_display_key)
            group_players = [p for p in group_players if p.id not in gone]
            matches = [m for m in matches if m.player_a not in gone and m.player_b not in gone]
    ledger = Ledger(group_players, matches, opts, get_metric, adjustments)
    metrics = [get_metric(k) for k in opts.tiebreaks]
    global_values = {m.key: ledger.values(m.key) for m in metrics if m.global_value}
    # A disqualified (or removed) player stays in the ledger — his games count for his
    # opponents, as the director chose — but takes no place: he is ranked after everyone.
    listed = sorted(ledger.players.values(), key=_display_key)
    order = [p.id for p in listed if not p.excluded]
    out = [p for p in listed if p.excluded]
    if places is None:
        groups, local = rank(ledger, metrics, [order] if order else [])
    else:
        keys = places([p.id for p in listed], matches)
        others = [m for m in metrics if m.key != "stage"]
        groups, local = rank(ledger, others, cup.group_by_key(order, keys))
        if "stage" in global_values:
            global_values["stage"] = {pid: float(cup.shown_stage(key)) for pid, key in keys.items()}
    sources = {m.key: global_values.get(m.key) if m.global_value else local.get(m.key, {}) for m in metrics}
    rows: list[StandingRow] = []
    place = 1
    for group in groups:
        place_to = place + len(group) - 1
        for pid in group:
            adjusted = ledger.adjustments.get(pid)
            rows.append(StandingRow(
                ledger.players[pid], place, place_to, RowValues(pid, sources), tuple(adjusted) if adjusted else ()
            ))  # fmt: skip
        place = place_to + 1
    for player in out:
        rows.append(StandingRow(
            player, place, place, RowValues(player.id, sources), tuple(ledger.adjustments.get(player.id, ())),
            excluded=True,
        ))  # fmt: skip
    for player in left_out:
        empty = dict.fromkeys((m.key for m in metrics), None)
        rows.append(StandingRow(player, place, place, empty, counted=False, excluded=player.excluded))
    index = {r.player.id: i for i, r in enumerate(rows)}
    return Standings(section=name, rows=tuple(rows), options=opts, index=index)
