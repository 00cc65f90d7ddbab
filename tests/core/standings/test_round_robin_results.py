"""Round robin results (issue 35): the free round is no game, a forfeit counts against the real
opponent in Sonneborn-Berger, a withdrawal before half the games is not counted (FIDE C.06),
head-to-head compares the personal matches' points when their wins are level, and every value
is an exact decimal."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.round_robin import round_robin
from tournaments.standings import (
    Match,
    Player,
    StandingsOptions,
    System,
    build_crosstable,
    compute_standings,
)

RR = System.ROUND_ROBIN


def _players(n: int, withdrawn: tuple[int, ...] = ()) -> list[Player]:
    return [Player(i, f"P{i}", draw_number=i, withdrawn=i in withdrawn) for i in range(1, n + 1)]


def _schedule(n: int, winner, cycles: int = 1) -> list[Match]:
    """Every match of a Berger schedule of ``n`` (byes included), ``winner(a, b)`` wins 5:2."""
    out = []
    for rnd in round_robin(list(range(1, n + 1)), cycles=cycles):
        for p in rnd.pairings:
            w = winner(p.a, p.b)
            sa, sb = (5, 2) if w == p.a else (2, 5)
            out.append(Match(rnd.round, p.a, p.b, sa, sb, winner=w))
        if rnd.bye is not None:
            out.append(Match(rnd.round, rnd.bye, None, 0, 0, winner=rnd.bye))
    return out


def test_the_free_round_of_an_odd_field_adds_nothing():
    # 5 players: the lower number always wins, so player 5 loses every match.
    matches = _schedule(5, min)
    opts = StandingsOptions(system=RR, tiebreaks=("wins", "points", "sonneborn_berger", "buchholz"))
    table = compute_standings(_players(5), matches, opts)
    last = table.row(5)
    assert last.values["wins"] == 0 and last.values["sonneborn_berger"] == 0
    assert [table.row(i).values["wins"] for i in range(1, 6)] == [4, 3, 2, 1, 0]
    # Four games each, whatever round the table gave the free round in.
    assert [table.row(i).values["points"] for i in range(1, 6)] == [20, 17, 14, 11, 8]


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 9), st.randoms(use_true_random=False))
def test_byes_never_change_a_round_robin_table(n, rnd):
    """Removing every free round from the matches changes no value of any row."""
    matches = _schedule(n, lambda a, b: rnd.choice((a, b)))
    keys = ("points", "wins", "sonneborn_berger", "buchholz", "difference", "progressive")
    opts = StandingsOptions(system=RR, tiebreaks=keys)
    with_byes = compute_standings(_players(n), matches, opts)
    without = compute_standings(_players(n), [m for m in matches if m.player_b is not None], opts)
    assert [(r.player.id, dict(r.values)) for r in with_byes.rows] == [
        (r.player.id, dict(r.values)) for r in without.rows
    ]


def test_sonneborn_berger_counts_a_forfeit_against_the_real_opponent():
    # 4 players, 3 rounds; player 4 does not come to round 3 against player 1.
    matches = [
        Match(1, 1, 4, 5, 3, winner=1), Match(1, 2, 3, 5, 4, winner=2),
        Match(2, 4, 3, 5, 1, winner=4), Match(2, 1, 2, 2, 5, winner=2),
        Match(3, 1, 3, 5, 0, winner=1), Match(3, 2, 4, 5, 0, winner=2, kind="forfeit"),
    ]
    opts = StandingsOptions(system=RR, tiebreaks=("points", "sonneborn_berger"))
    table = compute_standings(_players(4), matches, opts)
    points = {pid: table.row(pid).values["points"] for pid in range(1, 5)}
    assert points == {1: 12, 2: 15, 3: 5, 4: 8}
    # Player 2 beat 3 (5 pts) and 1 (12 pts) and, by forfeit, 4 (8 pts): 25, not a virtual one.
    assert table.row(2).values["sonneborn_berger"] == 25
    assert isinstance(table.row(2).values["sonneborn_berger"], Decimal)


def test_values_are_exact_decimals_even_with_a_virtual_opponent():
    """The Swiss virtual opponent's average pace made 217.51999999999998; now two decimals."""
    players = _players(6)
    matches = [
        Match(1, 1, 2, 7, 0, winner=1, kind="forfeit"), Match(1, 3, 4, 7, 3, winner=3),
        Match(1, 5, 6, 4, 7, winner=6),
        Match(2, 1, 3, 7, 6, winner=1), Match(2, 2, 5, 7, 1, winner=2), Match(2, 4, 6, 7, 5, winner=4),
        Match(3, 1, 6, 7, 2, winner=1), Match(3, 3, 5, 7, 4, winner=3), Match(3, 2, 4, 1, 7, winner=4),
    ]
    opts = StandingsOptions(system=System.SWISS, tiebreaks=("wins", "sonneborn_berger"), score_basis="points")
    for row in compute_standings(players, matches, opts).rows:
        value = row.values["sonneborn_berger"]
        assert isinstance(value, Decimal)
        assert -value.as_tuple().exponent <= 6, value  # no 17-digit float tail


def test_a_withdrawal_before_half_the_games_is_not_counted_but_stays_in_the_crosstable():
    """FIDE C.06: 6 players (5 games each); player 6 wins his first two 5:0 and leaves."""
    players = _players(6, withdrawn=(6,))
    matches = []
    for rnd in round_robin(list(range(1, 7))):
        for p in rnd.pairings:
            if 6 in (p.a, p.b) and rnd.round <= 2:
                other = p.b if p.a == 6 else p.a
                sa, sb = (5, 0) if p.a == 6 else (0, 5)
                matches.append(Match(rnd.round, p.a, p.b, sa, sb, winner=6))
            elif 6 in (p.a, p.b):
                other = p.b if p.a == 6 else p.a
                sa, sb = (5, 0) if p.a == other else (0, 5)
                matches.append(Match(rnd.round, p.a, p.b, sa, sb, winner=other, kind="forfeit"))
            else:
                w = min(p.a, p.b)
                sa, sb = (5, 4) if w == p.a else (4, 5)
                matches.append(Match(rnd.round, p.a, p.b, sa, sb, winner=w))
    opts = StandingsOptions(system=RR, tiebreaks=("points", "h2h"))
    table = compute_standings(players, matches, opts)
    gone = table.row(6)
    assert not gone.counted and gone.place_label == "—" and table.rows[-1] is gone
    assert gone.values["points"] is None
    # Nobody keeps points from player 6: 4 games each among players 1–5.
    counted = {r.player.id: r.values["points"] for r in table.rows if r.counted}
    assert counted == {1: 20, 2: 19, 3: 18, 4: 17, 5: 16}
    assert table.rows[0].player.id == 1
    # The crosstable keeps his two wins and the forfeits, for the record.
    grid = build_crosstable(players, matches, opts, layout="row", standings=table)
    six = [p.id for p in grid.players].index(6)
    texts = [grid.text(six, c) for c in range(6) if c != six]
    assert sum(t == "5:0" for t in texts) == 2 and sum(t.startswith("−") for t in texts) == 3


def test_half_the_games_played_counts():
    """4 players (3 games): with 2 played he counts (FIDE: less than half is not counted)."""
    matches = [
        Match(1, 1, 4, 0, 5, winner=4), Match(1, 2, 3, 5, 1, winner=2),
        Match(2, 4, 3, 5, 0, winner=4), Match(2, 1, 2, 5, 1, winner=1),
        Match(3, 1, 3, 5, 0, winner=1), Match(3, 2, 4, 5, 0, winner=2, kind="forfeit"),
    ]
    opts = StandingsOptions(system=RR, tiebreaks=("points",))
    table = compute_standings(_players(4, withdrawn=(4,)), matches, opts)
    assert table.row(4).counted and table.row(4).values["points"] == 10
    one = compute_standings(_players(4, withdrawn=(4,)), matches[:2] + [
        Match(2, 4, 3, 0, 5, winner=3, kind="forfeit"), *matches[3:5],
        Match(3, 2, 4, 5, 0, winner=2, kind="forfeit"),
    ], opts)
    assert not one.row(4).counted  # 1 of 3 played


def test_a_double_round_robin_counts_both_cycles_for_half():
    """6 of 10 games played in a double round robin of 6: counted; 4 of 10: not."""
    matches = _schedule(6, min, cycles=2)
    opts = StandingsOptions(system=RR, tiebreaks=("points",), cycles=2)

    def after(last_played: int) -> list[Match]:
        out = []
        for m in matches:
            if 6 in (m.player_a, m.player_b) and m.round > last_played:
                m = Match(m.round, m.player_a, m.player_b, 0, 0, winner=None, kind="void")
            out.append(m)
        return out

    assert not compute_standings(_players(6, (6,)), after(4), opts).row(6).counted
    assert compute_standings(_players(6, (6,)), after(6), opts).row(6).counted


def test_head_to_head_compares_the_personal_matches_points_when_wins_are_level():
    """A double round robin of 3: 1 and 2 split their matches 1:1 (5:3, 4:5) and tie on 16
    points; 1 scored 9 against 2's 8 in their personal matches, so 1 is ahead."""
    def event(first: tuple[int, int], last: tuple[int, int]) -> list[Match]:
        return [
            Match(1, 1, 2, *first, winner=1), Match(2, 2, 3, 5, 1, winner=2),
            Match(3, 3, 1, 2, 5, winner=1), Match(4, 2, 1, 5, 4, winner=2),
            Match(5, 3, 2, 5, last[1], winner=3), Match(6, 1, 3, 2, 5, winner=3),
        ]

    opts = StandingsOptions(system=RR, tiebreaks=("points", "h2h"), cycles=2)
    table = compute_standings(_players(3), event((5, 3), (5, 3)), opts)
    assert table.row(1).values["points"] == table.row(2).values["points"] == 16
    assert [r.player.id for r in table.rows] == [1, 2, 3]
    assert table.row(1).place_label == "1" and table.row(2).place_label == "2"
    assert table.row(1).values["h2h"] == table.row(2).values["h2h"] == 1  # one match won each
    # Level on wins and on points in their matches too (5:4, 4:5): the place is shared.
    shared = compute_standings(_players(3), event((5, 4), (5, 2)), opts)
    assert shared.row(1).values["points"] == shared.row(2).values["points"] == 16
    assert shared.row(1).place_label == shared.row(2).place_label == "1–2"
