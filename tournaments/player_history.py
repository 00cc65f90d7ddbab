"""What a player's public profile shows, read with a fixed number of queries.

Every reader here costs the same number of queries whatever the length of the
player's history (``tests/test_profiles.py`` counts them at two sizes):

* events with place and score: the standings of each event are computed by the
  standings core from :func:`tournaments.standings_service.load_events` (one
  bulk read for all the player's events) and kept in the page cache under each
  tournament's cache version (:mod:`tournaments.cache`), so they are recomputed
  only after that tournament changed and a warm profile costs no query for them;
* every match: one page of them (``PAGE_SIZE``) plus a count;
* head-to-head: two grouped queries (the player as side A, as side B).

Only released tournaments (``Tournament.public``) and published or finished
rounds (:mod:`tournaments.access.visibility`) appear: a profile shows nothing an
outsider could not already see on the tournaments' own pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from clubs.models import Player
from scoring.rules.match.result_kinds import UNPLAYED
from tournaments.standings import get_metric
from tournaments.standings.crosstable import FORFEIT_LOSS, FORFEIT_WIN, format_score

from . import cache as page_cache
from .access.permissions import can_view, visible_tournaments
from .access.visibility import public_matches
from .models import Entry, Match, RatingChange, ResultKind, ResultStatus, Tournament
from .standings_service import load_events

PAGE_SIZE = 30
"""Matches per page of the profile."""


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's line in one event's final (or current) standings."""

    place: str
    of: int
    score: float | None
    metric: str
    """The key of the main score's metric (its abbreviation is shown in the reader's language)."""

    def metric_abbr(self, language: str) -> str:
        return get_metric(self.metric).abbr(language)


def event_places(tournaments: Sequence[Tournament]) -> dict[int, dict[int, Placing]]:
    """Tournament id → entry id → :class:`Placing`, from the cache or one bulk read.

    An event with no published round has no places yet (an empty dict).
    """
    keys = {t.pk: page_cache.fragment_key(t.pk, "places") for t in tournaments}
    found = cache.get_many(list(keys.values())) if keys else {}
    out: dict[int, dict[int, Placing]] = {}
    missing = []
    for t in tournaments:
        value = found.get(keys[t.pk])
        if value is None:
            missing.append(t)
        else:
            out[t.pk] = value
    fresh = {}
    for tid, event in load_events(missing).items():
        places: dict[int, Placing] = {}
        if event.rounds:
            for table in event.standings.values():
                main = table.options.tiebreaks[0] if table.options.tiebreaks else ""
                for row in table.rows:
                    places[row.player.id] = Placing(
                        row.place_label, len(table.rows), row.values.get(main), main
                    )
        out[tid] = places
        fresh[keys[tid]] = places
    if fresh:
        cache.set_many(fresh, page_cache.FRAGMENT_TIMEOUT)
    return out


def events_of(player: Player) -> list[tuple[Entry, Placing | None]]:
    """The player's entries in released tournaments, newest first, each with its placing."""
    entries = list(
        Entry.objects.filter(player=player, tournament__public=True)
        .select_related("tournament", "section")
        .order_by("-tournament__starts_on", "-tournament_id")
    )
    places = event_places([e.tournament for e in entries])
    return [(e, places.get(e.tournament_id, {}).get(e.pk)) for e in entries]


# --- matches ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match from one player's side: opponent, score and outcome."""

    match: Match
    mine: str
    opponent: Player | None
    score_for: int | None
    score_against: int | None
    outcome: str
    """"win", "loss", "draw" (played); "forfeit_win", "forfeit_loss", "void" (decided without
    play: :data:`NOT_PLAYED`); "bye" or "pending"."""

    @property
    def tournament(self) -> Tournament:
        return self.match.round.tournament

    @property
    def variant(self) -> str:
        return self.tournament.get_variant_display()

    @property
    def score(self) -> str:
        """The score from this side; a match nobody played shows "+:−" / "−:+" (as crosstables
        write a forfeit), never the awarded "7:0" as if it had been played."""
        if self.outcome in PLAYED:
            return f"{format_score(float(self.score_for))}:{format_score(float(self.score_against))}"
        return FORFEIT_SCORES.get(self.outcome, "")


#: Outcomes of a match played over the board: they count as games played in head-to-head.
PLAYED = ("win", "loss", "draw")
#: Outcomes of a result decided without play (forfeits, double forfeits, void matches:
#: ``scoring.rules.match.result_kinds.UNPLAYED``); a time forfeit was played and is a win or a loss.
NOT_PLAYED = ("forfeit_win", "forfeit_loss", "void")
FORFEIT_SCORES = {
    "forfeit_win": f"{FORFEIT_WIN}:{FORFEIT_LOSS}",
    "forfeit_loss": f"{FORFEIT_LOSS}:{FORFEIT_WIN}",
    "void": "×",
}


def match_line(match: Match, player_id: int) -> MatchLine:
    mine = "a" if match.entry_a.player_id == player_id else "b"
    if match.is_bye:
        return MatchLine(match, mine, None, None, None, "bye")
    opponent = match.entry_b.player if mine == "a" else match.entry_a.player
    mine_score, their = (match.score_a, match.score_b) if mine == "a" else (match.score_b, match.score_a)
    finished = (
        match.result_status == ResultStatus.CONFIRMED
        and match.score_a is not None
        and match.score_b is not None
    )
    if not finished:
        outcome = "pending"
    elif match.result_kind in UNPLAYED:
        won = match.winner == mine and match.result_kind == ResultKind.FORFEIT
        outcome = "void" if match.result_kind == ResultKind.VOID else "forfeit_win" if won else "forfeit_loss"
    elif not match.winner:
        outcome = "draw"
    else:
        outcome = "win" if match.winner == mine else "loss"
    return MatchLine(match, mine, opponent, mine_score, their, outcome)


def _visible_matches() -> QuerySet:
    return public_matches(Match.objects.filter(round__tournament__public=True)).select_related(
        "round__tournament", "entry_a__player", "entry_b__player"
    )


NEWEST_FIRST = ("-round__tournament__starts_on", "-round__tournament_id", "-round__number", "-id")


def of_variant(qs: QuerySet, variant: str | None) -> QuerySet:
    """Only the matches of one variant (backgammon, long nardy, …) when one is chosen."""
    return qs.filter(round__tournament__variant=variant) if variant else qs


def matches_page(player: Player, page_number, variant: str | None = None) -> tuple[Page, list[MatchLine]]:
    """One page of the player's matches, newest first (2 queries: a count and the page)."""
    qs = of_variant(_visible_matches().filter(seats__entry__player=player), variant).order_by(*NEWEST_FIRST)
    page = Paginator(qs, PAGE_SIZE).get_page(page_number)
    return page, [match_line(m, player.pk) for m in page.object_list]


def matches_between(player: Player, other: Player, variant: str | None = None) -> list[MatchLine]:
    """Every visible match of ``player`` against ``other``, newest first, from ``player``'s side."""
    qs = of_variant(_visible_matches().filter(
        Q(entry_a__player=player, entry_b__player=other)
        | Q(entry_a__player=other, entry_b__player=player)
    ), variant).order_by(*NEWEST_FIRST)  # fmt: skip
    return [match_line(m, player.pk) for m in qs]


# --- head-to-head -----------------------------------------------------------------------------


@dataclass
class Record:
    """Confirmed matches against one opponent: played, won, lost (and drawn, for fixed games).

    ``matches``, ``wins`` and ``losses`` count matches played over the board only; results
    decided without play (a forfeit, a double forfeit, a void match) are ``forfeits``.
    """

    opponent_id: int
    name_ru: str
    name_latin: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    forfeits: int = 0

    @property
    def draws(self) -> int:
        return self.matches - self.wins - self.losses

    def name(self, language: str) -> str:
        if language.startswith("en") and self.name_latin.strip():
            return self.name_latin
        return self.name_ru


def record_of(lines: Sequence[MatchLine], opponent: Player) -> Record:
    """The head-to-head record in ``lines`` (pending matches and byes do not count)."""
    rec = Record(opponent.pk, opponent.full_name, opponent.latin_name)
    for line in lines:
        if line.outcome in PLAYED:
            rec.matches += 1
            rec.wins += line.outcome == "win"
            rec.losses += line.outcome == "loss"
        elif line.outcome in NOT_PLAYED:
            rec.forfeits += 1
    return rec


def head_to_head(player: Player, variant: str | None = None) -> list[Record]:
    """A record per opponent over confirmed matches, most played first (2 queries)."""
    base = of_variant(public_matches(
        Match.objects.filter(
            round__tournament__public=True,
            result_status=ResultStatus.CONFIRMED,
            entry_b__isnull=False,
        )
    ), variant)  # fmt: skip
    played = ~Q(result_kind__in=UNPLAYED)
    records: dict[int, Record] = {}
    for me, them in (("a", "b"), ("b", "a")):
        rows = (
            base.filter(**{f"entry_{me}__player": player})
            .values(
                opp=F(f"entry_{them}__player_id"),
                last=F(f"entry_{them}__player__last_name"),
                first=F(f"entry_{them}__player__first_name"),
                last_lat=F(f"entry_{them}__player__last_name_latin"),
                first_lat=F(f"entry_{them}__player__first_name_latin"),
            )
            .annotate(
                n=Count("id", filter=played),
                won=Count("id", filter=played & Q(winner=me)),
                lost=Count("id", filter=played & Q(winner=them)),
                unplayed=Count("id", filter=~played),
            )
            .order_by()
        )
        for row in rows:
            rec = records.get(row["opp"])
            if rec is None:
                rec = records[row["opp"]] = Record(
                    row["opp"],
                    f"{row['last']} {row['first']}".strip(),
                    f"{row['first_lat']} {row['last_lat']}".strip(),
                )
            rec.matches += row["n"]
            rec.wins += row["won"]
            rec.losses += row["lost"]
            rec.forfeits += row["unplayed"]
    return sorted(records.values(), key=lambda r: (-r.matches, -r.forfeits, r.name_ru))


# --- rating history ---------------------------------------------------------------------------


#: THE PRIVACY RULE for ratings earned in a non-public event (issue 37), on every page, export and
#: API alike. The *numbers* are public: a private event's rated matches count in the player's rating,
#: experience and number of rated matches, on the rating lists and the profile, because a pool is one
#: sequence and leaving matches out would show wrong numbers. The *event* is private: to a reader who
#: may not view it (``tournaments.access.permissions.can_view``), its rating-history lines show only
#: the rating before and after — no event, round, match, date, opponent, length, score or expected
#: score — and say that they come from an event not shown. Season standings follow the same rule
#: (``clubs.life.seasons.standings``): the points count for everyone, the event's name is not shown.
PRIVACY_RULE = "numbers public, event private"


def last_public_played() -> Subquery:
    """For a row of ``PlayerRating``: the date of the player's last rated match of that pool in a
    *released* event — the "last rated match" every list shows and the "active in the last N
    months" filter counts (:data:`PRIVACY_RULE`: a private event's date is the event's, so it is
    not shown; issue 49). Walks the player's changes newest first on their (player, pool,
    sequence) index and stops at the first public one."""
    return Subquery(
        RatingChange.objects.filter(
            player=OuterRef("player_id"), pool=OuterRef("pool"), match__round__tournament__public=True
        )
        .order_by("-sequence")
        .values("played_on")[:1]
    )


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One rating change as a reader may see it: ``change`` is None for an event not shown."""

    rating_before: float
    rating_after: float
    change: RatingChange | None

    @property
    def hidden(self) -> bool:
        return self.change is None

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


def rating_changes(player: Player, pool: str) -> list[RatingChange]:
    """The player's rating changes in one pool, in rating order (1 query); unfiltered: officials' use."""
    return list(
        RatingChange.objects.filter(player=player, pool=pool)
        .select_related("match__round__tournament", "opponent")
        .order_by("sequence")
    )


def rating_history(player: Player, pool: str, reader) -> list[HistoryLine]:
    """The player's rating history in one pool as ``reader`` may see it (:data:`PRIVACY_RULE`)."""
    changes = rating_changes(player, pool)
    events = {c.match.round.tournament_id: c.match.round.tournament for c in changes}
    shown = {pk for pk, event in events.items() if can_view(reader, event)}
    return [
        HistoryLine(c.rating_before, c.rating_after, c if c.match.round.tournament_id in shown else None)
        for c in changes
    ]


def hidden_rated_matches(player: Player, reader) -> int:
    """How many of the player's rated matches come from events ``reader`` may not view (1 query).

    The profile says so beside the ratings, since those matches count (:data:`PRIVACY_RULE`).
    """
    return (
        RatingChange.objects.filter(player=player)
        .exclude(match__round__tournament__in=visible_tournaments(reader))
        .count()
    )
