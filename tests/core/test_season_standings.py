"""The season core: points by place, shared places, best N of M, ties by the chosen metrics."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.standings.season import SeasonEvent, best, points_for, season_standings
from tournaments.standings.types import Match, Player

TABLE = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
PLAYERS = [Player(i, f"Игрок {c}") for i, c in zip(range(1, 6), "АБВГД", strict=True)]


def one(place):
    return (place, place)


def test_points_by_place_and_beyond_the_table():
    assert points_for(1, 1, TABLE) == 25
    assert points_for(10, 10, TABLE) == 1
    assert points_for(11, 11, TABLE) == 0


def test_shared_places_share_their_points():
    assert points_for(3, 4, TABLE) == pytest.approx((15 + 12) / 2)
    assert points_for(10, 11, TABLE) == pytest.approx(0.5)


def test_totals_and_places():
    events = [
        SeasonEvent(10, {1: one(1), 2: one(2), 3: one(3)}),
        SeasonEvent(11, {2: one(1), 3: one(2), 4: one(3)}),
    ]
    rows = season_standings(PLAYERS, events, TABLE)
    assert [(r.player.id, r.total, r.place_label) for r in rows] == [
        (2, 43, "1"), (3, 33, "2"), (1, 25, "3"), (4, 15, "4"),
    ]  # fmt: skip
    assert rows[0].points == {10: 18, 11: 25}
    assert 5 not in {r.player.id for r in rows}  # played nothing: not listed


def test_best_n_of_m_counts_only_the_best_events():
    events = [
        SeasonEvent(1, {1: one(1), 2: one(2)}),
        SeasonEvent(2, {1: one(10), 2: one(2)}),
        SeasonEvent(3, {1: one(1), 2: one(2)}),
    ]
    rows = season_standings(PLAYERS, events, TABLE, best_of=2)
    by_id = {r.player.id: r for r in rows}
    assert by_id[1].total == 50 and by_id[1].counted == frozenset({1, 3})
    assert by_id[2].total == 36 and len(by_id[2].counted) == 2
    all_count = {r.player.id: r.total for r in season_standings(PLAYERS, events, TABLE)}
    assert all_count == {1: 51, 2: 54}  # without best-of the order flips


def test_a_tie_of_equal_results_counts_the_earlier_event():
    assert best({1: 10, 2: 10, 3: 5}, 1, [1, 2, 3]) == frozenset({1})


def test_ties_on_points_are_split_by_the_chosen_metrics():
    # 1 and 2 have the same season points; 2 beat 1 in their match, so h2h puts 2 first.
    events = [SeasonEvent(1, {1: one(1), 2: one(2)}), SeasonEvent(2, {2: one(1), 1: one(2)})]
    matches = [Match(1001, 1, 2, 5, 3, winner=2), Match(2001, 2, 1, 5, 1, winner=2)]
    no_tiebreaks = season_standings(PLAYERS, events, TABLE, matches=matches)
    assert [r.place_label for r in no_tiebreaks] == ["1–2", "1–2"]
    rows = season_standings(PLAYERS, events, TABLE, tiebreaks=["wins"], matches=matches)
    assert [(r.player.id, r.place_label) for r in rows] == [(2, "1"), (1, "2")]
    assert rows[0].values["wins"] == 2


def test_points_decide_before_any_tiebreak():
    events = [SeasonEvent(1, {1: one(1), 2: one(2)})]
    matches = [Match(1001, 1, 2, 1, 5, winner=2)]  # 2 won the match but finished second
    rows = season_standings(PLAYERS, events, TABLE, tiebreaks=["wins"], matches=matches)
    assert [r.player.id for r in rows] == [1, 2]


def test_unknown_metric_is_refused():
    with pytest.raises(RuleViolation):
        season_standings(PLAYERS, [SeasonEvent(1, {1: one(1), 2: one(1)})], TABLE, tiebreaks=["nope"])


@given(
    st.lists(st.dictionaries(st.integers(1, 5), st.integers(1, 12), min_size=1), min_size=1, max_size=6),
    st.one_of(st.none(), st.integers(1, 6)),
)
def test_total_is_the_sum_of_the_best_counted_events(places, best_of):
    events = [SeasonEvent(i, {p: one(v) for p, v in ev.items()}) for i, ev in enumerate(places)]
    rows = season_standings(PLAYERS, events, TABLE, best_of=best_of)
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
    for r in rows:
        earned = sorted(r.points.values(), reverse=True)
        assert r.total == pytest.approx(sum(earned[:best_of] if best_of else earned))
        assert len(r.counted) == min(len(earned), best_of or len(earned))
