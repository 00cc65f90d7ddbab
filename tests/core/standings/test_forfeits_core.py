"""Forfeits, double forfeits, time forfeits and void matches in the standings core.

The convention (``tournaments/standings/ledger.py``): a forfeit is a match win/loss,
a double forfeit a loss for both, a void match counts for nobody; opponent-based
tie-breaks treat forfeited games as unplayed, through FIDE's virtual opponent.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    ByeValue,
    Match,
    Player,
    StandingsOptions,
    System,
    build_crosstable,
    build_round_crosstable,
    compute_standings,
)

KINDS = ["played", "played", "forfeit", "double_forfeit", "time_forfeit", "void"]


def _four():
    return [Player(i, f"P{i}", draw_number=i) for i in range(1, 5)]


def test_a_forfeit_is_a_match_win_but_an_unplayed_game_for_buchholz():
    players = _four()
    matches = [
        Match(1, 1, 2, 5, 0, winner=1, kind="forfeit"),  # 2 did not come
        Match(1, 3, 4, 5, 3, winner=3),
        Match(2, 1, 3, 5, 1, winner=1),
        Match(2, 2, 4, 2, 5, winner=4),
    ]
    opts = StandingsOptions(system=System.SWISS, tiebreaks=("wins", "buchholz"), total_rounds=2)
    st_ = compute_standings(players, matches, opts)
    assert st_.row(1).values["wins"] == 2
    # Player 1's round-1 opponent is the virtual one: player 1's 0 before the round, lost
    # it, then ½ in the one round left = 0.5; round 2: player 3 (1 win). 1.5 — not 1, which
    # counting player 2 (who never came, 0 wins) as a real opponent would give.
    assert st_.row(1).values["buchholz"] == 1.5
    # Player 2 lost by forfeit: its virtual opponent had 0, won the round, then ½ → 1.5;
    # round 2 player 4 (1 win): 2.5 — not 2 + 1 from player 1's real score.
    assert st_.row(2).values["buchholz"] == 2.5


def test_double_forfeit_is_a_loss_for_both_and_void_counts_for_nobody():
    players = _four()
    matches = [
        Match(1, 1, 2, 0, 0, kind="double_forfeit"),
        Match(1, 3, 4, 0, 0, kind="void"),
    ]
    st_ = compute_standings(players, matches, StandingsOptions(tiebreaks=("wins",)))
    assert all(st_.row(p).values["wins"] == 0 for p in (1, 2, 3, 4))
    table = build_crosstable(players, matches, StandingsOptions())
    assert table.text(0, 1) == "−0:0" and table.text(1, 0) == "−0:0"
    assert table.text(2, 3) == ""  # void: no cell
    rounds = build_round_crosstable(players, matches, StandingsOptions())
    texts = {r.player.id: r.cells[0].text("en") for r in rounds.rows}
    assert texts[1].split()[1] == "−" and texts[3].split()[1] == "×"


def test_marks_in_the_book_crosstable():
    players = _four()[:2]
    matches = [Match(1, 1, 2, 5, 0, winner=1, kind="forfeit")]
    book = build_crosstable(players, matches, StandingsOptions())
    # Book layout: the cell in row r, column c is read from the column player's side.
    assert book.text(1, 0) == "+5:0" and book.text(0, 1) == "−0:5"
    timed = build_crosstable(players, [Match(1, 1, 2, 5, 3, winner=1, kind="time_forfeit")])
    assert timed.text(1, 0) == "5:3⏱"


@st.composite
def events(draw):
    n = draw(st.integers(min_value=2, max_value=8))
    players = [Player(i + 1, f"P{i + 1}", draw_number=i + 1) for i in range(n)]
    rounds = draw(st.integers(min_value=1, max_value=5))
    matches: list[Match] = []
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(range(1, n + 1)))
        for k in range(0, n - 1, 2):
            a, b = order[k], order[k + 1]
            kind = draw(st.sampled_from(KINDS))
            if kind in ("double_forfeit", "void"):
                matches.append(Match(rnd, a, b, 0, 0, kind=kind))
                continue
            loser = draw(st.integers(min_value=0, max_value=4))
            a_wins = draw(st.booleans())
            sa, sb = (5, loser) if a_wins else (loser, 5)
            matches.append(Match(rnd, a, b, sa, sb, winner=a if a_wins else b, kind=kind))
        if n % 2:
            matches.append(Match(rnd, order[-1], None, 5, 0))
    return players, matches


@settings(max_examples=80, deadline=None)
@given(events(), st.sampled_from(list(ByeValue)))
def test_every_match_counted_once_and_wins_conserved(event, bye_value):
    players, matches = event
    # A Swiss: there a bye is a won round (a round robin's free round is no game).
    opts = StandingsOptions(
        system=System.SWISS, tiebreaks=("wins", "buchholz", "sonneborn_berger"), bye_value=bye_value
    )
    rows = compute_standings(players, matches, opts).rows
    assert sorted(r.player.id for r in rows) == [p.id for p in players]
    decided = sum(1 for m in matches if m.kind not in ("double_forfeit", "void"))
    assert sum(r.values["wins"] for r in rows) == decided  # one win per decided match or bye
    points = sum(r.values.get("points", 0) for r in compute_standings(
        players, matches, StandingsOptions(system=System.SWISS, tiebreaks=("points",))).rows)
    assert points == sum(m.score_a + m.score_b for m in matches if m.kind != "void")
    for r in rows:
        assert r.values["buchholz"] >= 0
