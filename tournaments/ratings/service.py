"""The shell around the ratings core: confirmed results in, ratings and their history stored.

What counts (issue 13): the confirmed result of a match of a *rated* tournament
(``Tournament.rated``) whose variant is in a rating pool (``clubs.ratings.pools``).
Byes and forfeits are never rated; :data:`NOT_RATED` is the one table of such exclusions.

- :func:`rate_new` — the first confirmations of a pool, rated together a moment after
  they commit (``tournaments.ratings.tasks.rate_new_results``, one task for a whole burst).
- :func:`rate_confirmed` — one match (``tournaments.ratings.tasks.rate_match``, after a
  correction or a ruling): a first confirmation updates both players'
  :class:`~clubs.models.PlayerRating` and writes their two
  :class:`~tournaments.models.RatingChange` rows with the pool's next sequence
  number. A correction or ruling that changes an already rated result (and
  :func:`unrate`, a result voided) returns the sequence from which the pool must
  be recomputed; the workflow schedules :func:`recompute` as a Celery task
  (``tournaments.ratings.tasks.recompute_ratings``) after the commit.
- **What a change costs** (issue 50): new results of the pool's last round are appended
  (:func:`_append`: a round's matches are simultaneous, :func:`group_key`), a correction
  re-rates its dependency closure only (:func:`_replay_closure`); both equal a full rebuild.
- :func:`recompute` — replays the pool's stored confirmed results from a sequence
  number on with :func:`clubs.ratings.history.replay` and rewrites the changes and
  the current ratings with bulk operations. ``manage.py recompute_ratings`` runs it
  from the start; so ratings always equal the replay of the stored results in order.

**Played order** (issue 37; the dating rule is :mod:`clubs.ratings.order`'s): every
rated match is dated by when it was played — its round's day within the event's days,
else the event's first day — never by its confirmation or import, and the pool's
sequence is the played order. A result of a past event confirmed, imported or made
rated late is not appended: the pool is recomputed from the first change dated on or
after it (:func:`recompute` finds that place itself), so a late-imported 2011 event is
rated before this year's events and its players are not "active this month".

Concurrency: every writer first takes the pool's lock (a PostgreSQL transaction
advisory lock keyed by the pool; SQLite serialises writers anyway), then locks the
players' rating rows, so two confirmations in one pool get distinct, ordered
sequence numbers and neither overwrites the other.

``Player.rating``/``Player.experience`` are *not* written here: they stay what the
player declared or an import gave (a federation rating), used for seeding only
when the player has no rating in the tournament's pool (:func:`seeding_ratings`).

**Where a newcomer starts** is the pool's rule in :mod:`clubs.ratings.starts` (the rating
at entry of their first rated match, else the player's imported or declared rating, else
1500): :func:`newcomer_starts` reads its clues from the stored entries, so the incremental
path and a full recompute give the same start, stored with its source on the rating row.

Fixed-games matches: the stored score is in points (game values), while the core
rates games won; only who won (or a level match) matters to the formula, so the
core gets ``n:0``, ``0:n`` or ``n/2:n/2`` and the history keeps the real score.
"""

from __future__ import annotations

import datetime as dt
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Count, F, Min, OuterRef, Subquery
from django.utils import timezone

from clubs.models import Player, PlayerRating
from clubs.ratings.fibs import Standing
from clubs.ratings.history import RatedMatch, replay
from clubs.ratings.order import order_key, played_on
from clubs.ratings.pools import POOLS, pool_of
from clubs.ratings.starts import Clues, Start, start_of
from scoring.rules.match.result_kinds import UNPLAYED
from tournaments.models import (
    RESULT_STANDS,
    Match,
    RatingChange,
    ResultKind,
    Tournament,
)
from tournaments.validation import match_spec
from zarik.collector import few_collections

Progress = Callable[[int, int], None]
#: Above every sequence a pool can reach (``_before`` it: a player's latest change).
LAST_SEQUENCE = 2**31 - 1


class MatchRow(NamedTuple):
    """What rating needs of a confirmed match, read as a plain row (no model objects in bulk)."""

    pk: int
    round_id: int
    match_length: int | None
    section_id: int | None
    entry_b_id: int | None
    player_a: int
    player_b: int | None
    score_a: int | None
    score_b: int | None
    winner: str
    updated_at: dt.datetime
    result_kind: str = ResultKind.PLAYED
    round_published: dt.datetime | None = None
    starts_on: dt.date | None = None
    ends_on: dt.date | None = None
    tournament_id: int = 0
    round_number: int = 0
    table: int | None = None
    seed_a: float | None = None
    seed_b: float | None = None
    declared_a: float | None = None
    declared_b: float | None = None

    def clues_of(self, player: int) -> Clues:
        """What this match says of where ``player`` would start the pool (:mod:`clubs.ratings.starts`):
        the side's rating at entry and the player's own rating, read with the row (no extra query)."""
        if player == self.player_a:
            return Clues(self.seed_a, self.declared_a)
        return Clues(self.seed_b, self.declared_b)


ROW_FIELDS = (
    "pk", "round_id", "match_length", "entry_a__section_id", "entry_b_id",
    "entry_a__player_id", "entry_b__player_id", "score_a", "score_b", "winner", "updated_at",
    "result_kind", "round__published_at", "round__tournament__starts_on", "round__tournament__ends_on",
    "round__tournament_id", "round__number", "table", "entry_a__seed_rating", "entry_b__seed_rating",
    "entry_a__player__rating", "entry_b__player__rating",
)  # fmt: skip

#: Matches that are never rated, whatever their result: (reason, test). A newcomer adds a row.
NOT_RATED: tuple[tuple[str, Callable[[MatchRow], bool]], ...] = (
    ("bye", lambda row: row.entry_b_id is None),
    # Forfeits, double forfeits and void matches: nobody played (FIDE: forfeits are not
    # rated). A time forfeit was played over the board and is rated as a win for the winner.
    ("forfeit", lambda row: row.result_kind in UNPLAYED),
)

#: RatingChange's columns in the order :func:`_change_rows` gives them (and COPY writes them).
CHANGE_COLUMNS = (
    "match_id", "player_id", "opponent_id", "pool", "sequence", "played_on", "length",
    "score_for", "score_against", "result", "expected", "rating_before", "rating_after",
    "experience_before",
)  # fmt: skip

BATCH = 5000
_LOCK_CLASS = 0x5A52  # "ZR": the advisory-lock namespace of the rating pools


def pool_for(tournament: Tournament) -> str | None:
    """The tournament's rating pool, or None when its results are not rated."""
    if not tournament.rated:
        return None
    try:
        return pool_of(tournament.variant)
    except KeyError:
        return None


def _lock_pool(pool: str) -> None:
    """Serialise writers of one pool until the transaction ends (PostgreSQL advisory lock)."""
    if connection.vendor != "postgresql":
        return  # SQLite: one writer at a time already
    key = zlib.crc32(pool.encode())
    key = key - 2**32 if key >= 2**31 else key
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, key])


def _row_of(match: Match) -> MatchRow:
    rnd, tournament = match.round, match.round.tournament
    return MatchRow(
        match.pk, match.round_id, match.match_length, match.entry_a.section_id, match.entry_b_id,
        match.entry_a.player_id, match.entry_b.player_id if match.entry_b_id else None,
        match.score_a, match.score_b, match.winner, match.updated_at, match.result_kind,
        rnd.published_at, tournament.starts_on, tournament.ends_on, tournament.pk, rnd.number, match.table,
        match.entry_a.seed_rating, match.entry_b.seed_rating if match.entry_b_id else None,
        match.entry_a.player.rating, match.entry_b.player.rating if match.entry_b_id else None,
    )  # fmt: skip


def played_date(row: MatchRow) -> dt.date:
    """When the match was played (the dating rule: :func:`clubs.ratings.order.played_on`)."""
    day = timezone.localtime(row.round_published).date() if row.round_published else None
    return played_on(day, row.starts_on, row.ends_on)


def played_key(row: MatchRow) -> tuple:
    """The match's place in its pool's played order (:func:`clubs.ratings.order.order_key`)."""
    return order_key(played_date(row), row.starts_on, row.tournament_id, row.round_number, row.table, row.pk)


def _first_on_or_after(pool: str, day: dt.date) -> int | None:
    """The first sequence of the pool dated ``day`` or later: where a late match's replay starts."""
    return RatingChange.objects.filter(pool=pool, played_on__gte=day).aggregate(m=Min("sequence"))["m"]


def _length_key(row: MatchRow) -> tuple:
    return (row.round_id, row.match_length, row.section_id)


def _length_of(match: Match) -> tuple[int, bool]:
    """A match's rated length: (points, False), or (games, True) for a fixed-games match."""
    spec = match_spec(match)
    return (int(spec.length), False) if spec.is_points else (int(spec.fixed_games), True)


def _lengths(rows: list[MatchRow]) -> dict[tuple, tuple[int, bool]]:
    """The rated length of every (round, match length, section) the rows have: one query."""
    sample = {_length_key(row): row.pk for row in rows}
    matches = Match.objects.filter(pk__in=sample.values()).select_related(
        "round__tournament", "round__section", "entry_a__section"
    )
    by_pk = {m.pk: m for m in matches}
    return {key: _length_of(by_pk[pk]) for key, pk in sample.items()}


def rated_row(row: MatchRow, length: tuple[int, bool]) -> RatedMatch | None:
    """The core's view of a confirmed match (player ids as keys), or None when it is not rated."""
    if row.score_a is None or any(test(row) for _, test in NOT_RATED):
        return None
    n, games = length
    x, y = row.score_a, row.score_b
    if row.result_kind == ResultKind.TIME_FORFEIT and row.winner in ("a", "b"):
        x, y = (n, 0) if row.winner == "a" else (0, n)  # the clock decided, whatever the score
    elif games:
        won = row.winner or ("a" if x > y else "b" if y > x else "")
        x, y = {"a": (n, 0), "b": (0, n)}.get(won, (n / 2, n / 2))
    return RatedMatch(row.player_a, row.player_b, n, x, y, games)


def rated_match(match: Match) -> RatedMatch | None:
    """:func:`rated_row` for one match whose result stands (the workflow's path)."""
    if not match.result_stands:
        return None
    return rated_row(_row_of(match), _length_of(match))


@dataclass(frozen=True)
class _Slot:
    """A match's place in the pool's order, kept through corrections and recomputes."""

    sequence: int
    played_on: dt.date


def _change_rows(row: MatchRow, slot: _Slot, pool: str, changes) -> list[tuple]:
    """The two RatingChange rows of a match, as tuples in :data:`CHANGE_COLUMNS` order."""
    scores = {row.player_a: (row.score_a, row.score_b), row.player_b: (row.score_b, row.score_a)}
    return [
        (
            row.pk, c.player, c.opponent, pool, slot.sequence, slot.played_on, c.length,
            scores[c.player][0], scores[c.player][1], c.result,  # plain numbers: decimal columns
            c.expected, c.rating_before, c.rating_after, int(c.experience_before),
        )
        for c in changes
    ]  # fmt: skip


def _write_changes(rows: list[tuple]) -> None:
    """Insert RatingChange rows: PostgreSQL's COPY (no model objects), else bulk_create."""
    if connection.vendor == "postgresql":
        table = RatingChange._meta.db_table
        columns = ", ".join(RatingChange._meta.get_field(n).column for n in CHANGE_COLUMNS)
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for values in rows:
                    copy.write_row(values)
        return
    RatingChange.objects.bulk_create(
        (RatingChange(**dict(zip(CHANGE_COLUMNS, values, strict=True))) for values in rows),
        batch_size=BATCH,
    )


def _player_names(match: Match):
    names = {match.entry_a.player_id: str(match.entry_a.player)}
    if match.entry_b_id:
        names[match.entry_b.player_id] = str(match.entry_b.player)
    return lambda key: names.get(key, str(key))


@transaction.atomic
def rate_confirmed(match: Match) -> tuple[str, int] | None:
    """Rate a just-confirmed result; returns (pool, sequence) when the pool needs a recompute.

    A first confirmation is rated here and now (both players at once). A match
    already rated whose rated result changed (a correction, a ruling) keeps its
    sequence; the caller schedules :func:`recompute` from it. Raises
    :class:`~scoring.rules.errors.RuleViolation` if the core refuses the result.
    """
    pool = pool_for(match.round.tournament)
    if pool is None:
        return None
    rated = rated_match(match)
    _lock_pool(pool)
    existing = list(match.rating_changes.order_by("pk"))
    if rated is None:
        return (pool, existing[0].sequence) if existing else None
    if existing:
        now = {c.player_id: (c.length, c.score_for, c.score_against) for c in existing}
        same = now == {
            rated.a: (rated.length, match.score_a, match.score_b),
            rated.b: (rated.length, match.score_b, match.score_a),
        }
        return None if same else (pool, existing[0].sequence)
    row = _row_of(match)
    last_change = RatingChange.objects.filter(pool=pool).order_by("-sequence").first()
    if _append(pool, [(row, rated)], last_change, names=_player_names(match)):
        return None
    return pool, _first_on_or_after(pool, played_date(row)) or last_change.sequence


def group_key(row: MatchRow) -> tuple:
    """The match's round in the pool's played order (:func:`played_key` without table and id).

    A round's matches are *simultaneous*: a player plays at most one match of a round, so
    they share no player and the ratings do not depend on their order among themselves
    (each change depends only on its two players' standings before it). Their sequence
    numbers follow the order they were rated in; a full rebuild numbers them by table.
    """
    return played_key(row)[:4]


def _later_matches_of(pool: str, rows: list[MatchRow]) -> bool:
    """Whether a player of ``rows`` has a rated match in a round of ``rows`` or later (one query).

    Only the players' own changes from the earliest date of ``rows`` on are read: a few per
    player, however many results the pool or the round already has.
    """
    first: dict[int, tuple] = {}
    for row in rows:
        for pid in (row.player_a, row.player_b):
            first[pid] = min(first.get(pid, group_key(row)), group_key(row))
    rated = RatingChange.objects.filter(
        pool=pool, player_id__in=list(first), played_on__gte=min(played_date(r) for r in rows)
    ).values_list(
        "player_id", "played_on", "match__round__tournament__starts_on", "match__round__tournament_id",
        "match__round__number",
    )  # fmt: skip
    return any((played, starts, event, number) >= first[pid] for pid, played, starts, event, number in rated)


def _append(pool: str, order: list[tuple[MatchRow, RatedMatch]], last_change: RatingChange | None,
            names: Callable = str) -> bool:  # fmt: skip
    """Rate new results at the end of the pool when nothing rated depends on them; False when
    something does (the caller replays instead).

    They may go at the end when each was played in the pool's last rated round or after it and
    none of their players has a rated match in that round or later: then no rated change
    depends on them (:func:`group_key`), and rating them from their players' current ratings
    gives exactly what a full rebuild gives. This is a round's every confirmation but a late
    one of an earlier round: the cost is the new matches' own, not the pool's or the round's.
    """
    if not order:
        return True
    order = sorted(order, key=lambda item: played_key(item[0]))
    rows = [row for row, _ in order]
    if last_change is not None:
        last_row = MatchRow(*Match.objects.filter(pk=last_change.match_id).values_list(*ROW_FIELDS).get())
        if group_key(rows[0]) < group_key(last_row) or _later_matches_of(pool, rows):
            return False
    players = {p for _, r in order for p in (r.a, r.b)}
    current = {
        pid: (Standing(rating, experience), matches, last)
        for pid, rating, experience, matches, last in PlayerRating.objects.select_for_update()
        .filter(pool=pool, player_id__in=list(players))
        .values_list("player_id", "rating", "experience", "matches", "last_played")
    }  # fmt: skip
    firsts = newcomer_starts(rows, set(current))
    start = {pid: state for pid, (state, _c, _d) in current.items()}
    start.update({pid: first.standing() for pid, first in firsts.items()})
    table, changes = replay(start, [r for _, r in order], names=names)
    counts = {pid: c for pid, (_s, c, _d) in current.items()}
    dates = {pid: d for pid, (_s, _c, d) in current.items()}
    first_sequence = last_change.sequence + 1 if last_change else 1
    written: list[tuple] = []
    for number, row in enumerate(rows):
        slot = _Slot(first_sequence + number, played_date(row))
        pair = changes[2 * number : 2 * number + 2]
        written.extend(_change_rows(row, slot, pool, pair))
        for c in pair:
            counts[c.player] = counts.get(c.player, 0) + 1
            dates[c.player] = max(filter(None, (dates.get(c.player), slot.played_on)))
    _write_changes(written)
    _store_ratings(pool, table, counts, dates, players, False, firsts)
    return True


@transaction.atomic
def rate_new(pool: str) -> int:
    """Rate every confirmed result of the pool not rated yet; returns how many were rated.

    The first confirmations' batch (``tournaments.ratings.tasks.rate_new_results``): they
    take their places in played order — appended when they belong to the pool's last rated
    round or a later one and no rated match depends on them (the usual case: :func:`_append`),
    else the pool is replayed from their date on.
    """
    _lock_pool(pool)
    last_change = RatingChange.objects.filter(pool=pool).order_by("-sequence").first()
    new = [MatchRow(*v) for v in _pool_rows(pool).filter(rating_changes__isnull=True).values_list(*ROW_FIELDS)]
    lengths = _lengths(new) if new else {}
    order = [(row, rated) for row in new if (rated := rated_row(row, lengths[_length_key(row)])) is not None]
    if _append(pool, order, last_change):
        return len(order)
    return recompute(pool, last_change.sequence + 1)


@transaction.atomic
def unrate(match: Match) -> tuple[str, int] | None:
    """A confirmed result was voided: drop its changes; returns (pool, sequence) to recompute from."""
    first = match.rating_changes.order_by("sequence").first()
    if first is None:
        return None
    _lock_pool(first.pool)
    players = set(match.rating_changes.values_list("player_id", flat=True))
    match.rating_changes.all().delete()
    _restore_latest(first.pool, players)
    return first.pool, first.sequence


def _restore_latest(pool: str, players: set[int]) -> None:
    """The players of a dropped match: each one's rating is their last change left (no change
    left: no rating). The recompute that follows rewrites only players with changes after the
    dropped one, so a player whose last match was dropped would otherwise keep its rating."""
    latest = _before(pool, LAST_SEQUENCE, players)
    _store_ratings(
        pool,
        {pid: standing for pid, (standing, _count, _date) in latest.items()},
        {pid: count for pid, (_standing, count, _date) in latest.items()},
        {pid: date for pid, (_standing, _count, date) in latest.items()},
        players,
        False,
        {},
    )


def _pool_rows(pool: str):
    """The pool's rated matches whose result stands (a disputed result counts until the ruling,
    as in the standings: :data:`tournaments.models.RESULT_STANDS`), byes left out."""
    return Match.objects.filter(
        RESULT_STANDS,
        round__tournament__rated=True,
        round__tournament__variant__in=POOLS[pool].variants,
        entry_b__isnull=False,
    )


def _before(pool: str, sequence: int, players: Iterable[int]) -> dict[int, tuple[Standing, int, dt.date | None]]:
    """Each player's standing, rated matches and last date just before ``sequence`` (one query)."""
    earlier = RatingChange.objects.filter(player=OuterRef("pk"), pool=pool, sequence__lt=sequence)
    last = earlier.order_by("-sequence")
    rows = (
        Player.objects.filter(pk__in=list(players))
        .annotate(
            r=Subquery(last.values("rating_after")[:1]),
            e=Subquery(last.annotate(x=F("experience_before") + F("length")).values("x")[:1]),
            d=Subquery(last.values("played_on")[:1]),
            c=Subquery(earlier.order_by().values("player").annotate(c=Count("pk")).values("c")[:1]),
        )
        .values_list("pk", "r", "e", "d", "c")
    )
    return {pk: (Standing(r, e), c or 0, d) for pk, r, e, d, c in rows if r is not None}


@transaction.atomic
@few_collections()  # a full rebuild at 10,000 players met full collector passes (issue 32)
def recompute(pool: str, from_sequence: int = 1, progress: Progress | None = None, *, closure: bool = False) -> int:
    """Replay the pool's confirmed results from ``from_sequence`` on, in played order; returns the matches rated.

    From 1 it is a full rebuild: every confirmed result of the pool's rated events
    counts, in played order (:func:`played_key`). Otherwise the changes from
    ``from_sequence`` on are replayed together with the results never rated yet; when
    one of those was played before ``from_sequence``'s match, the replay starts earlier,
    at the first change dated on or after it. Results no longer rated lose their changes.
    ``closure``: the result of the match at ``from_sequence`` changed and nothing else did (a
    correction, a ruling: ``rate_match``); when nothing new is waiting and that match is still
    rated in its place, only its dependency closure is replayed (:func:`_replay_closure`). Not
    for a merge of two players or an event made rated: their players' counts change too.
    """
    _lock_pool(pool)
    matches = _pool_rows(pool)
    if from_sequence > 1 or closure:
        new = [MatchRow(*v) for v in matches.filter(rating_changes__isnull=True).values_list(*ROW_FIELDS)]
        if new:
            earliest = _first_on_or_after(pool, min(played_date(r) for r in new))
            from_sequence = min(from_sequence, earliest or from_sequence)
    else:
        new = []
    if closure and not new:
        again = _replay_closure(pool, matches, from_sequence)
        if again is not None:
            return again
    full = from_sequence <= 1
    old = RatingChange.objects.filter(pool=pool, sequence__gte=from_sequence)
    if full:
        found = [MatchRow(*v) for v in matches.values_list(*ROW_FIELDS)]
    else:
        again = set(old.values_list("match_id", flat=True))
        found = [MatchRow(*v) for v in matches.filter(pk__in=list(again)).values_list(*ROW_FIELDS)] + new
    lengths = _lengths(found)
    order: list[tuple[MatchRow, RatedMatch]] = []
    for row in found:
        rated = rated_row(row, lengths[_length_key(row)])
        if rated is not None:
            order.append((row, rated))
    order.sort(key=lambda item: played_key(item[0]))
    total = len(order)
    if progress:
        progress(0, total)
    involved = {p for _, r in order for p in (r.a, r.b)}
    involved |= set(old.values_list("player_id", flat=True))
    before = {} if full else _before(pool, from_sequence, involved)
    start = {pid: state for pid, (state, _c, _d) in before.items()}
    firsts = newcomer_starts([match for match, _ in order], set(before))
    start.update({pid: first.standing() for pid, first in firsts.items()})
    table, changes = replay(start, [r for _, r in order])
    # New places: renumbered from ``from_sequence`` in order (a full rebuild compacts them).
    rows: list[tuple] = []
    counts = {pid: c for pid, (_s, c, _d) in before.items()}
    dates = {pid: d for pid, (_s, _c, d) in before.items()}
    for number, (match, _rated) in enumerate(order):
        slot = _Slot(max(from_sequence, 1) + number, played_date(match))
        pair = changes[2 * number : 2 * number + 2]
        rows.extend(_change_rows(match, slot, pool, pair))
        for c in pair:
            counts[c.player] = counts.get(c.player, 0) + 1
            dates[c.player] = max(filter(None, (dates.get(c.player), slot.played_on)))
        if progress and number % 1000 == 999:
            progress(number + 1, total)
    if full:
        RatingChange.objects.filter(pool=pool).delete()
    else:
        old.delete()
    _write_changes(rows)
    _store_ratings(pool, table, counts, dates, involved, full, firsts)
    if progress:
        progress(total, total)
    return total


def _replay_closure(pool: str, matches, from_sequence: int) -> int | None:
    """Re-rate only what depends on the match at ``from_sequence`` (a correction, a ruling);
    None when the order itself may have changed (the caller replays the whole tail).

    A change depends on its two players' standings just before it, so a corrected result
    reaches the later matches of its two players, then those of their opponents, and so on
    (its *dependency closure*); every other change of the tail stays what it is. The tail is
    read as plain numbers to find the closure; only the closure is replayed and rewritten, in
    the places it had. Each player of the closure starts from his standing just before his
    first match in it: his last change outside it, else his pool's start.
    """
    tail = (
        RatingChange.objects.filter(pool=pool, sequence__gte=from_sequence)
        .order_by("sequence", "player_id")
        .values_list("sequence", "match_id", "player_id", "rating_after", "experience_before", "length", "played_on")
    )
    by_match: dict[int, list[tuple]] = {}
    for change in tail:
        by_match.setdefault(change[1], []).append(change)
    if not by_match or next(iter(by_match.values()))[0][0] != from_sequence:
        return None  # the match at ``from_sequence`` lost its changes (voided): counts change too
    reached: set[int] = set()
    closure: list[int] = []
    outside: dict[int, Standing] = {}  # a player's standing after his last change outside the closure
    for match_id, pair in by_match.items():
        players = {c[2] for c in pair}
        if not closure or players & reached:
            closure.append(match_id)
            reached |= players
        else:
            for _seq, _m, pid, after, experience, length, _day in pair:
                outside[pid] = Standing(after, experience + length)
    found = {row.pk: row for row in (MatchRow(*v) for v in matches.filter(pk__in=closure).values_list(*ROW_FIELDS))}
    lengths = _lengths(list(found.values()))
    order: list[tuple[MatchRow, RatedMatch, _Slot]] = []
    for match_id in closure:
        row = found.get(match_id)
        rated = rated_row(row, lengths[_length_key(row)]) if row is not None else None
        sequence, day = by_match[match_id][0][0], by_match[match_id][0][6]
        if rated is None or played_date(row) != day:
            return None  # no longer rated, or moved in the order: its place must be found again
        order.append((row, rated, _Slot(sequence, day)))
    current = {
        pid: (Standing(start, 0), matches_count, last)
        for pid, start, matches_count, last in PlayerRating.objects.filter(pool=pool, player_id__in=list(reached))
        .values_list("player_id", "start_rating", "matches", "last_played")
    }  # fmt: skip
    start = {pid: state for pid, (state, _c, _d) in current.items()}
    start.update({pid: state for pid, (state, _c, _d) in _before(pool, from_sequence, reached).items()})
    start.update({pid: state for pid, state in outside.items() if pid in reached})
    table, changes = replay(start, [rated for _, rated, _ in order])
    rows: list[tuple] = []
    for number, (row, _rated, slot) in enumerate(order):
        rows.extend(_change_rows(row, slot, pool, changes[2 * number : 2 * number + 2]))
    RatingChange.objects.filter(pool=pool, match_id__in=closure).delete()
    _write_changes(rows)
    counts = {pid: c for pid, (_s, c, _d) in current.items()}
    dates = {pid: d for pid, (_s, _c, d) in current.items()}
    _store_ratings(pool, table, counts, dates, reached, False, {})
    return len(order)


def _store_ratings(pool, table, counts, dates, involved, full, firsts: dict[int, Start]) -> None:
    """Make PlayerRating of the pool what the replay says, for the players involved.

    Their rows are deleted and inserted again in bulk (the whole pool's on a full
    rebuild): far cheaper than updating thousands of rows one ``CASE`` at a time.
    Nothing refers to a PlayerRating row, so its id may change. ``firsts``: the starts of
    the players new to the pool in this replay; the others keep the start they have.
    """
    stale = PlayerRating.objects.filter(pool=pool)
    kept = {} if full else {
        pid: Start(rating, source)
        for pid, rating, source in stale.filter(player_id__in=involved)
        .exclude(player_id__in=list(firsts)).values_list("player_id", "start_rating", "start_source")
    }  # fmt: skip
    starts = {**kept, **firsts}
    stale.delete() if full else stale.filter(player_id__in=involved).delete()
    rows = []
    for pid in sorted(involved):
        if counts.get(pid):
            state, first = table[pid], starts.get(pid, Start())
            rows.append(PlayerRating(
                player_id=pid, pool=pool, rating=state.rating, experience=int(state.experience),
                matches=counts[pid], last_played=dates.get(pid),
                start_rating=first.rating, start_source=first.source,
            ))  # fmt: skip
    PlayerRating.objects.bulk_create(rows, batch_size=BATCH)


def newcomer_starts(rows: Iterable[MatchRow], known: set[int]) -> dict[int, Start]:
    """The pool's start (:func:`clubs.ratings.starts.start_of`) of every player of ``rows`` not in ``known``.

    ``rows`` are in played order, so a newcomer's clues are those of their first rated match:
    the rating at entry of that event, else the player's own rating (both read with the row).
    """
    starts: dict[int, Start] = {}
    for row in rows:
        for pid in (row.player_a, row.player_b):
            if pid is not None and pid not in known and pid not in starts:
                starts[pid] = start_of(row.clues_of(pid))
    return starts


def seeding_ratings(tournament: Tournament, entries: Iterable) -> dict[int, float]:
    """Entry id → the rating to seed by: the pool's rating, else the rating at entry, else the player's."""
    entries = list(entries)
    pool = None
    try:
        pool = pool_of(tournament.variant)
    except KeyError:
        pass
    pooled = dict(
        PlayerRating.objects.filter(pool=pool, player_id__in=[e.player_id for e in entries])
        .values_list("player_id", "rating")
    ) if pool else {}  # fmt: skip
    out = {}
    for e in entries:
        value = pooled.get(e.player_id)
        if value is None:
            value = e.seed_rating if e.seed_rating is not None else e.player.rating
        out[e.pk] = float(value or 0)
    return out
