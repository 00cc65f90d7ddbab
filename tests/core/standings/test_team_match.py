"""The Scheveningen team match core (issue 35): match wins, then points; forfeits as forfeits.

The book (Part 9): «наряду с основным командным матчем удаётся провести и личное
первенство» — the team match and the individual standings come from the same matches,
so the team's score must equal the sum of its players' individual results.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.match.result_kinds import ResultKind
from tournaments.pairing.scheveningen import lineup_problems, scheveningen
from tournaments.standings import (
    Match,
    MatchStatus,
    Player,
    StandingsOptions,
    System,
    build_crosstable,
    compute_standings,
)
from tournaments.standings.team_match import (
    DOUBLE_FORFEIT,
    DRAW,
    LOSS,
    PENDING,
    VOID,
    WIN,
    TeamLineup,
    team_match,
    team_matches,
)

A = TeamLineup(1, "Москва", (11, 12))
B = TeamLineup(2, "Баку", (21, 22))


def m(rnd, a, b, sa, sb, winner=None, kind=ResultKind.PLAYED, finished=True):
    status = MatchStatus.FINISHED if finished else MatchStatus.PENDING
    return Match(rnd, a, b, sa, sb, winner=winner, kind=kind, status=status)


def test_match_wins_decide_then_points_and_the_grid_has_a_down_b_across():
    matches = [
        m(1, 11, 21, 5, 3, winner=11),
        m(1, 22, 12, 5, 2, winner=22),  # B's player listed first: still board 2 v board 2
        m(2, 11, 22, 5, 4, winner=11),
        m(2, 21, 12, 0, 5, winner=12),
    ]
    tm = team_match(A, B, matches)
    assert (tm.total.match_points_a, tm.total.match_points_b) == (3, 1)
    assert (tm.total.points_a, tm.total.points_b) == (17, 12)
    assert tm.final and tm.winner == "a"
    assert [(n, t.match_points_a, t.match_points_b) for n, t in tm.rounds] == [(1, 1, 1), (2, 2, 0)]
    cell = tm.grid[1][1]  # Москва board 2 v Баку board 2, from Москва's side
    assert (cell.a, cell.b, cell.score_a, cell.score_b, cell.outcome) == (12, 22, 2, 5, LOSS)
    assert tm.grid[0][0].outcome == WIN and tm.grid[1][0].round == 2
    assert tm.board_points() == ((2, 1), (0, 1))


def test_level_on_match_wins_the_points_decide_and_level_on_both_is_a_drawn_team_match():
    split = [m(1, 11, 21, 5, 0, winner=11), m(1, 12, 22, 4, 5, winner=22)]
    assert team_match(A, B, split).winner == "a"  # 2:2 would be level; points 9:5
    even = [m(1, 11, 21, 5, 3, winner=11), m(1, 12, 22, 3, 5, winner=22)]
    tm = team_match(A, B, even)
    assert tm.final and tm.winner is None and tm.total.leader is None


def test_an_absence_counts_as_the_forfeit_it_is():
    """A forfeit scored "as played" (0:0 on the sheet) is still a match win for the present
    player's team; a double forfeit gives neither team anything; a void match is no match."""
    matches = [
        m(1, 11, 21, 0, 0, winner=21, kind=ResultKind.FORFEIT),
        m(1, 12, 22, 0, 0, kind=ResultKind.DOUBLE_FORFEIT),
        m(2, 11, 22, 0, 0, kind=ResultKind.VOID, finished=False),
        m(2, 12, 21, 3, 5, winner=12, kind=ResultKind.TIME_FORFEIT),
    ]
    tm = team_match(A, B, matches)
    assert (tm.total.match_points_a, tm.total.match_points_b) == (1, 1)
    assert (tm.total.points_a, tm.total.points_b) == (3, 5)
    assert (tm.total.played, tm.total.forfeits, tm.total.pending) == (3, 2, 0)
    assert [tm.grid[0][0].outcome, tm.grid[1][1].outcome, tm.grid[0][1].outcome] == [LOSS, DOUBLE_FORFEIT, VOID]


def test_a_level_match_counts_half_and_an_unplayed_one_keeps_the_result_open():
    matches = [m(1, 11, 21, 2, 2), m(1, 12, 22, 0, 0, finished=False)]
    tm = team_match(A, B, matches)
    assert tm.total.match_points_a == Fraction(1, 2) == tm.total.match_points_b
    assert tm.grid[0][0].outcome == DRAW and tm.grid[1][1].outcome == PENDING
    assert not tm.final and tm.winner is None and tm.total.pending == 1


def test_team_matches_finds_each_pairing_of_teams_and_ignores_the_rest():
    c = TeamLineup(3, "Ереван", (31, 32))
    d = TeamLineup(4, "Тбилиси", (41, 42))
    matches = [m(1, 11, 21, 5, 0, winner=11), m(1, 31, 42, 5, 1, winner=31), m(1, 50, None, 1, 0, winner=50)]
    found = team_matches([A, B, c, d], matches)
    assert [(t.team_a.name, t.team_b.name) for t in found] == [("Москва", "Баку"), ("Ереван", "Тбилиси")]
    assert found[1].grid[0][1].outcome == WIN


def test_uneven_or_empty_teams_are_refused_with_their_names():
    (uneven,) = lineup_problems([("Москва", 4), ("Баку", 3)])
    assert uneven.code == "pairing.scheveningen.uneven_teams"
    assert "«Москва» — 4, «Баку» — 3" in uneven.message("ru") and "same number" in uneven.message("en")
    (empty,) = lineup_problems([("Москва", 2), ("Баку", 0)])
    assert empty.code == "pairing.scheveningen.empty_team" and "Баку" in empty.message("ru")
    assert lineup_problems([("Москва", 3), ("Баку", 3)]) == []


OUTCOMES = st.sampled_from(["a", "b", "draw", "forfeit_a", "forfeit_b", "double", "pending", "void"])


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=5), data=st.data())
def test_the_team_score_is_the_sum_of_the_individual_results(n, data):
    """Whatever happens board by board, each team's match wins and points are the sums of
    its players' match wins and points in the individual standings (forfeits included)."""
    team_a = TeamLineup(1, "A", tuple(range(1, n + 1)))
    team_b = TeamLineup(2, "B", tuple(range(101, 101 + n)))
    matches = []
    for rnd in scheveningen(list(team_a.players), list(team_b.players)):
        for p in rnd.pairings:
            what = data.draw(OUTCOMES)
            x, y = data.draw(st.integers(0, 7)), data.draw(st.integers(0, 7))
            if what == "a":
                matches.append(m(rnd.round, p.a, p.b, max(x, y) + 1, min(x, y), winner=p.a))
            elif what == "b":
                matches.append(m(rnd.round, p.a, p.b, min(x, y), max(x, y) + 1, winner=p.b))
            elif what == "draw":
                matches.append(m(rnd.round, p.a, p.b, x, x))
            elif what in ("forfeit_a", "forfeit_b"):
                winner = p.a if what == "forfeit_a" else p.b
                matches.append(m(rnd.round, p.a, p.b, 0, 0, winner=winner, kind=ResultKind.FORFEIT))
            elif what == "double":
                matches.append(m(rnd.round, p.a, p.b, 0, 0, kind=ResultKind.DOUBLE_FORFEIT))
            elif what == "pending":
                matches.append(m(rnd.round, p.a, p.b, 0, 0, finished=False))
            else:
                matches.append(m(rnd.round, p.a, p.b, 0, 0, kind=ResultKind.VOID, finished=False))
    tm = team_match(team_a, team_b, matches)
    players = [Player(pid, f"P{pid}") for pid in team_a.players + team_b.players]
    table = compute_standings(players, matches, StandingsOptions(system=System.SCHEVENINGEN))
    wins = {r.player.id: Fraction(r.values["wins"]).limit_denominator(2) for r in table.rows}
    points = {r.player.id: Fraction(r.values["points"]).limit_denominator(2) for r in table.rows}
    assert tm.total.match_points_a == sum(wins[p] for p in team_a.players)
    assert tm.total.match_points_b == sum(wins[p] for p in team_b.players)
    assert tm.total.points_a == sum(points[p] for p in team_a.players)
    assert tm.total.points_b == sum(points[p] for p in team_b.players)
    assert tm.board_points() == (tuple(wins[p] for p in team_a.players), tuple(wins[p] for p in team_b.players))
    assert tm.final == (tm.total.pending == 0)


def test_a_member_withdrawn_before_the_draw_is_named_with_his_team_and_board():
    (gone,) = lineup_problems([("Москва", 2), ("Баку", 2)], [("Баку", 2, "Алиев А.")])
    assert gone.code == "pairing.scheveningen.withdrawn_member"
    assert "Команда «Баку»: Алиев А. (доска 2)" in gone.message("ru")
    assert "Team «Баку»: Алиев А. (board 2)" in gone.message("en")


@settings(max_examples=40, deadline=None)
@given(st.permutations([11, 12, 21, 22]))
def test_the_crosstable_lists_team_a_by_board_then_team_b_whatever_the_draw_numbers(numbers):
    """The draw numbers mix the teams; the individual crosstable of a team event does not."""
    ids = [*A.players, *B.players]
    players = [Player(pid, f"P{pid}", draw_number=n) for pid, n in zip(ids, numbers, strict=True)]
    matches = [m(1, 11, 21, 5, 3, winner=11), m(1, 12, 22, 2, 5, winner=22)]
    options = StandingsOptions(system=System.SCHEVENINGEN)
    lined = build_crosstable(players, matches, options, lineup=ids)
    assert [p.id for p in lined.players] == ids
    by_draw = build_crosstable(players, matches, options)
    assert [p.draw_number for p in by_draw.players] == sorted(numbers)
