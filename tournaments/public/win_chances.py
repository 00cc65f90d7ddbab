"""Each pairing's expected win percentage, by the FIBS formula, for the public pairings pages.

The chance is :func:`clubs.ratings.fibs.win_probability` at the match's length
(its own length, else its round's, else the tournament's points or number of
games), from the players' ratings in the tournament's pool:

* a confirmed match that was rated shows the chance stored with its rating
  change (what the players' ratings said *before* the match);
* any other match uses the players' current pool ratings; where the pool has
  none for a player, the rating the pool will start them with (the entry's own
  rating — imported or typed at entry —, else 1500: :mod:`clubs.ratings.starts`),
  so a new event's chances mean something from round 1 (``source`` says which),
  and the stored expected score of round 1 is the same number.

Nothing meaningless is shown: no chance when neither player has any rating,
and none at an even 50% (it would print "50%" on every wall sheet). Byes have none. Two queries, inside the
cached fragment's build (a pairings page rebuilt after its tournament changes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clubs.models import PlayerRating
from clubs.ratings.fibs import win_probability
from clubs.ratings.pools import pool_of
from clubs.ratings.starts import NEW, Clues, start_of
from tournaments.models import RatingChange
from tournaments.standings_service import Event, Pairing


@dataclass(frozen=True, slots=True)
class Chance:
    """The favourite's side ("a" or "b"; "a" when level) and their chance in whole percent."""

    side: str
    percent: int
    probability_a: float
    source: str = "pool"  # "entry": an entry's own rating stood in for a missing pool rating


def match_length(event: Event, p: Pairing, round_lengths: dict[int, int | None]) -> int | None:
    """The match's own length, else its round's, else the tournament's points or games."""
    if p.length:
        return p.length
    if round_lengths.get(p.round_id):
        return round_lengths[p.round_id]
    t = event.tournament
    return t.match_length if t.match_format == "points" else t.fixed_games


def rating_of(pool: dict[int, float], player_id: int, entry_rating: float | None) -> tuple[float, bool]:
    """The pool's rating of a player, else where the pool will start them
    (:func:`clubs.ratings.starts.start_of`: the entry's rating, else 1500); and whether the
    entry's rating was used."""
    if player_id in pool:
        return pool[player_id], False
    first = start_of(Clues(entry_rating))
    return first.rating, first.source != NEW


def chances(event: Event, pairings: Sequence[Pairing]) -> dict[int, Chance]:
    """Match id → :class:`Chance` for every non-bye pairing of ``pairings`` (2 queries)."""
    games = [p for p in pairings if not p.is_bye]
    if not games:
        return {}
    try:
        pool = pool_of(event.tournament.variant)
    except KeyError:
        return {}
    player_of = {eid: e.player_id for eid, e in event.entries.items()}
    # Selected by the tournament and the rounds shown, not by lists of hundreds of ids:
    # preparing each id of a 400-player page cost more than the rest of its rebuild.
    ratings = dict(
        PlayerRating.objects.filter(
            pool=pool, player__entries__tournament_id=event.tournament.pk
        )
        .order_by()  # read into dicts: the models' orderings would only add sorts and joins
        .values_list("player_id", "rating")
    )
    confirmed = {p.id for p in games if p.confirmed}
    stored = {
        (mid, pid): expected
        for mid, pid, expected in RatingChange.objects.filter(
            match__round_id__in={p.round_id for p in games if p.confirmed}
        )
        .order_by()
        .values_list("match_id", "player_id", "expected")
        if mid in confirmed
    }
    round_lengths = {rnd.id: rnd.match_length for rnd in event.rounds}
    out: dict[int, Chance] = {}
    for p in games:
        a, b = player_of[p.a], player_of[p.b]
        prob = stored.get((p.id, a))
        if prob is None:
            length = match_length(event, p, round_lengths)
            if not length:
                continue
            rating_a, from_entry_a = rating_of(ratings, a, event.entries[p.a].rating)
            rating_b, from_entry_b = rating_of(ratings, b, event.entries[p.b].rating)
            source = "entry" if from_entry_a or from_entry_b else "pool"
            prob = win_probability(rating_a, rating_b, length)  # two newcomers: 50%, not shown
        else:
            source = "pool"
        side, best = ("a", prob) if prob >= 0.5 else ("b", 1 - prob)
        if round(best * 100) == 50:
            continue  # an even chance says nothing
        out[p.id] = Chance(side, round(best * 100), prob, source)
    return out
