"""Penalties as standings adjustments, and prize money split over tied places (Part 9)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.standings import (
    Adjustment,
    Match,
    Player,
    StandingsOptions,
    System,
    build_crosstable,
    compute_standings,
)
from tournaments.standings.prizes import PrizeSplit, award_prizes, split_prizes

from .test_standings_properties import events


def _three():
    players = [Player(i, f"P{i}", draw_number=i) for i in (1, 2, 3)]
    matches = [
        Match(1, 1, 2, 5, 3, winner=1),
        Match(1, 3, None, 0, 0),
        Match(2, 1, 3, 5, 1, winner=1),
        Match(2, 2, None, 0, 0),
        Match(3, 2, 3, 5, 4, winner=2),
        Match(3, 1, None, 0, 0),
    ]
    return players, matches


def test_a_penalty_on_the_main_score_drops_the_leader_and_is_carried_on_the_row():
    players, matches = _three()
    plain = compute_standings(players, matches, StandingsOptions(system=System.SWISS))
    assert plain.rows[0].player.id == 1 and plain.rows[0].values["wins"] == 3
    penalty = Adjustment(1, -2, "slow play after a warning")
    table = compute_standings(
        players, matches, StandingsOptions(system=System.SWISS), adjustments=[penalty]
    )
    row = table.row(1)
    assert row.values["wins"] == 1
    assert row.adjustments[0].metric == "wins" and row.adjustments[0].reason.startswith("slow")
    assert row.adjusted == {"wins"}
    assert table.rows[0].player.id == 2  # 2 wins now lead
    assert table.row(2).adjustments == ()


def test_a_penalty_on_points_in_a_round_robin_reaches_the_crosstable_total():
    players, matches = _three()
    options = StandingsOptions(system=System.ROUND_ROBIN)
    adj = [Adjustment(1, -3, "prompting")]
    table = compute_standings(players, matches, options, adjustments=adj)
    cross = build_crosstable(players, matches, options, standings=table)
    i = [p.id for p in cross.players].index(1)
    assert cross.totals[i] == 10 - 3
    assert cross.adjustments[i][0].reason == "prompting"


@settings(max_examples=60, deadline=None)
@given(events(), st.data())
def test_an_adjustment_moves_exactly_its_metric_by_its_amount(event, data):
    players, matches = event
    who = data.draw(st.sampled_from([p.id for p in players]))
    amount = data.draw(st.integers(min_value=-5, max_value=0))
    options = StandingsOptions(tiebreaks=("points", "wins", "against"))
    before = compute_standings(players, matches, options)
    after = compute_standings(players, matches, options, adjustments=[Adjustment(who, amount)])
    for p in players:
        b, a = before.row(p.id).values, after.row(p.id).values
        assert a["points"] == b["points"] + (amount if p.id == who else 0)
        assert a["wins"] == b["wins"] and a["against"] == b["against"]


# --------------------------------------------------------------------------- prizes


def test_equal_split_pools_the_places_of_players_level_on_score():
    # places 2 and 3 level: (300 + 200) / 2 each; an odd pool gives the first a kopeck more.
    got = split_prizes([7, 8, 9, 10], [3, 2, 2, 1], {1: 500, 2: 300, 3: 200})
    assert got == {7: 500, 8: 250, 9: 250}
    odd = split_prizes([1, 2, 3], [1, 1, 1], {1: 100})
    assert odd == {1: 34, 2: 33, 3: 33}


def test_tiebreak_split_pays_by_row_unless_the_place_is_shared():
    players, matches = _three()
    players.append(Player(4, "P4", draw_number=4))
    swiss = StandingsOptions(system=System.SWISS, tiebreaks=("wins",))
    table = compute_standings(players, matches, swiss)
    # 1: 3 wins; 2: 2 wins; 3: 1 win (a Swiss bye); 4: none
    prizes = {1: 1000, 2: 500, 3: 200}
    assert award_prizes(table, prizes, PrizeSplit.TIEBREAK) == {1: 1000, 2: 500, 3: 200}
    level = compute_standings(players, matches[:1], swiss)
    # only match 1 counted: player 1 first, 2, 3, 4 share "2–4"
    assert award_prizes(level, prizes, PrizeSplit.TIEBREAK) == {1: 1000, 2: 234, 3: 233, 4: 233}


def test_a_prize_table_over_the_fund_is_refused_with_a_coded_problem():
    with pytest.raises(RuleViolation) as err:
        split_prizes([1, 2], [1, 2], {1: 700, 2: 400}, fund=1000)
    (problem,) = err.value.problems
    assert problem.code == "standings.prize_over_fund"
    assert "11" in problem.message("en") and "10" in problem.message("ru")


@st.composite
def prize_cases(draw):
    n = draw(st.integers(min_value=0, max_value=12))
    scores = sorted(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), reverse=True)
    prizes = draw(st.dictionaries(st.integers(1, 15), st.integers(0, 100_000), max_size=8))
    fund = sum(prizes.values()) + draw(st.integers(0, 1000))
    return list(range(1, n + 1)), scores, prizes, fund


@settings(max_examples=200, deadline=None)
@given(prize_cases())
def test_prizes_never_exceed_the_fund_and_tied_shares_add_up(case):
    order, groups, prizes, fund = case
    got = split_prizes(order, groups, prizes, fund)
    assert sum(got.values()) <= fund
    # everything for the places that have a player is paid out, exactly
    assert sum(got.values()) == sum(a for place, a in prizes.items() if place <= len(order))
    # players level with each other get the same up to one minor unit, their sum the pool
    for key in set(groups):
        idx = [i for i, g in enumerate(groups) if g == key]
        shares = [got.get(order[i], 0) for i in idx]
        assert max(shares) - min(shares) <= 1
        pool = sum(prizes.get(i + 1, 0) for i in idx)
        assert sum(shares) == pool
