"""Properties that must hold for any event, not only the hand-made ones."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    CrosstableLayout,
    Match,
    Player,
    StandingsOptions,
    all_metrics,
    build_crosstable,
    compute_standings,
)

METRIC_KEYS = [m.key for m in all_metrics()]


@st.composite
def events(draw):
    """A round robin fragment or Swiss-like event: random pairs, results, some byes."""
    n = draw(st.integers(min_value=1, max_value=9))
    players = [Player(i + 1, f"P{i + 1}", draw_number=i + 1) for i in range(n)]
    rounds = draw(st.integers(min_value=0, max_value=5))
    matches: list[Match] = []
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(range(1, n + 1)))
        for k in range(0, n - 1, 2):
            a, b = order[k], order[k + 1]
            sa = draw(st.integers(min_value=0, max_value=7))
            sb = draw(st.integers(min_value=0, max_value=7))
            winner = None if sa == sb else (a if sa > sb else b)
            gam = draw(st.integers(min_value=0, max_value=2))
            matches.append(Match(rnd, a, b, sa, sb, winner=winner, gammons_a=gam))
        if n % 2:
            matches.append(Match(rnd, order[-1], None, 5, 0))
    return players, matches


criteria = st.lists(st.sampled_from(METRIC_KEYS), min_size=1, max_size=5, unique=True)


@settings(max_examples=60, deadline=None)
@given(events(), criteria)
def test_standings_are_a_permutation_with_consistent_places(event, keys):
    players, matches = event
    rows = compute_standings(players, matches, StandingsOptions(tiebreaks=tuple(keys))).rows
    assert sorted(r.player.id for r in rows) == [p.id for p in players]
    for i, row in enumerate(rows):
        assert row.place <= i + 1 <= row.place_to
        members = [r for r in rows if r.place == row.place]
        assert len(members) == row.place_to - row.place + 1


@settings(max_examples=60, deadline=None)
@given(events(), criteria, st.sampled_from(METRIC_KEYS))
def test_adding_a_tiebreak_never_overturns_an_earlier_decision(event, keys, extra):
    players, matches = event
    before = compute_standings(players, matches, StandingsOptions(tiebreaks=tuple(keys)))
    after_keys = tuple(keys) if extra in keys else (*keys, extra)
    after = compute_standings(players, matches, StandingsOptions(tiebreaks=after_keys))
    for x in before.rows:
        for y in before.rows:
            if x.place_to < y.place:  # x strictly ahead of y before
                ax, ay = after.row(x.player.id), after.row(y.player.id)
                assert ax.place_to < ay.place
            if x.place == y.place:  # a tie can only be split inside its own block
                ax = after.row(x.player.id)
                assert x.place <= ax.place <= ax.place_to <= x.place_to


@settings(max_examples=50, deadline=None)
@given(events())
def test_crosstable_totals_are_the_points_of_played_matches(event):
    players, matches = event
    opts = StandingsOptions(tiebreaks=("points",))
    book = build_crosstable(players, matches, opts)
    rows = build_crosstable(players, matches, opts, layout=CrosstableLayout.ROW)
    for i, p in enumerate(book.players):
        played = sum(m.score_a for m in matches if m.player_a == p.id and m.player_b)
        played += sum(m.score_b for m in matches if m.player_b == p.id)
        assert book.totals[i] == played == rows.totals[i]
        for j in range(len(book.players)):
            assert book.text(i, j) == rows.text(j, i)


@settings(max_examples=60, deadline=None)
@given(events(), st.lists(st.tuples(st.integers(1, 9), st.sampled_from([0.0, 0.5, 1.0])), max_size=6))
def test_requested_and_late_byes_add_exactly_their_points(event, credits):
    """A bye the player asked for (or a late entry's missed round) adds what the rule
    gives — 0, ½ or 1 — to the match-wins score and to the crosstable's running total,
    nothing else."""
    players, matches = event
    ids = {p.id for p in players}
    extra = [
        Match(99 + i, pid, None, 0, 0, winner=pid, bye_result=pts)
        for i, (pid, pts) in enumerate(credits)
        if pid in ids
    ]
    opts = StandingsOptions(tiebreaks=("wins",))
    before = {r.player.id: r.values["wins"] for r in compute_standings(players, matches, opts).rows}
    after = {
        r.player.id: r.values["wins"] for r in compute_standings(players, matches + extra, opts).rows
    }
    for pid in ids:
        gained = sum(m.bye_result for m in extra if m.player_a == pid)
        assert after[pid] == before[pid] + Decimal(str(gained))
