"""Turn a tournament's results so far into the Swiss generator's input.

The Django manager, the TRF importer and the benchmark all hold results as a
list of played tables and byes; deriving scores, opponents, byes, floats and
colours in one place keeps the three consistent (a float is defined once: you
met someone whose score before the round differed from yours).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tournaments.pairing.swiss_input import (
    ACTIVE,
    FLOAT_DOWN,
    FLOAT_UP,
    SCORE_GAME_POINTS,
    SCORE_MATCH_WINS,
    SwissPlayer,
)
from tournaments.pairing.types import BYE_PAIRING, PlayerId

PLAYED = "played"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: the open draw's number, rating and category section."""

    id: PlayerId
    draw_number: int
    rating: int = 0
    section: str = ""


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a finished round, or one bye (``b is None``).

    ``kind`` is ``played`` or a bye kind (``pairing``, ``requested``, ``absent``).
    Match points are what the score groups use by default (a win is 1); game
    points are the points scored inside the match (e.g. 5:3), used when the
    tournament ranks by game points.
    """

    round: int
    a: PlayerId
    b: PlayerId | None
    a_points: float
    b_points: float = 0.0
    a_games: float = 0.0
    b_games: float = 0.0
    white: PlayerId | None = None
    kind: str = PLAYED


def late_entry_byes(joined_round: int | None, points: float) -> list[tuple[int, float]]:
    """The documented late-entry rule: ``(round, points)`` for each round missed.

    A player entered from round j (j > 1) is credited ``points`` (the Swiss option
    ``late_entry_points``) for each of rounds 1..j-1. The default 0 follows FIDE
    practice (C.04.2: no points for rounds not played, unless the regulations say
    otherwise), fairest to those who played them; ½ a round is the common
    alternative some regulations choose. No credit at all when ``points`` is 0 (the
    pairing's score groups read this); the standings count every missed round as an
    unplayed game whatever it scores (:func:`missed_rounds`).
    """
    if not points:
        return []
    return [(r, points) for r in missed_rounds(joined_round)]


def missed_rounds(joined_round: int | None) -> range:
    """The rounds a player entered from round ``joined_round`` did not play (1..j-1). The
    standings count each as an unplayed game even when it scores nothing (FIDE C.04.2 calls it a
    zero-point bye; FIDE C.07 values an unplayed game through the virtual opponent), so a late
    entry's Buchholz is not that of a player who lost every game he missed."""
    return range(1, joined_round if joined_round and joined_round > 1 else 1)


def build_players(
    entrants: Iterable[Entrant],
    results: Iterable[TableResult],
    statuses: Mapping[PlayerId, str] | None = None,
    score: str = SCORE_MATCH_WINS,
) -> tuple[SwissPlayer, ...]:
    """Players' standings and histories after ``results`` (any rounds, any order)."""
    statuses = statuses or {}
    entrants = list(entrants)
    by_round: dict[int, list[TableResult]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    mp = {e.id: 0.0 for e in entrants}
    gp = {e.id: 0.0 for e in entrants}
    opponents: dict[PlayerId, list[PlayerId]] = {e.id: [] for e in entrants}
    byes: dict[PlayerId, list[int]] = {e.id: [] for e in entrants}
    floats: dict[PlayerId, list[str | None]] = {e.id: [] for e in entrants}
    colours: dict[PlayerId, list[str | None]] = {e.id: [] for e in entrants}
    for rnd in sorted(by_round):
        before = gp if score == SCORE_GAME_POINTS else mp
        before = dict(before)
        this_float: dict[PlayerId, str | None] = {}
        this_colour: dict[PlayerId, str | None] = {}
        for r in by_round[rnd]:
            mp[r.a] += r.a_points
            gp[r.a] += r.a_games
            if r.b is None:
                if r.kind == BYE_PAIRING:
                    byes[r.a].append(rnd)
                    this_float[r.a] = FLOAT_DOWN
                continue
            mp[r.b] += r.b_points
            gp[r.b] += r.b_games
            opponents[r.a].append(r.b)
            opponents[r.b].append(r.a)
            if before[r.a] > before[r.b]:
                this_float[r.a], this_float[r.b] = FLOAT_DOWN, FLOAT_UP
            elif before[r.a] < before[r.b]:
                this_float[r.a], this_float[r.b] = FLOAT_UP, FLOAT_DOWN
            if r.white is not None:
                black = r.b if r.white == r.a else r.a
                this_colour[r.white], this_colour[black] = "w", "b"
        for e in entrants:
            floats[e.id].append(this_float.get(e.id))
            colours[e.id].append(this_colour.get(e.id))
    return tuple(
        SwissPlayer(
            id=e.id,
            draw_number=e.draw_number,
            rating=e.rating,
            match_points=mp[e.id],
            game_points=gp[e.id],
            opponents=tuple(opponents[e.id]),
            bye_rounds=tuple(byes[e.id]),
            floats=tuple(floats[e.id]),
            colours=tuple(colours[e.id]),
            status=statuses.get(e.id, ACTIVE),
            section=e.section,
        )
        for e in entrants
    )
