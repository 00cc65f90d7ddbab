"""The cup's places (issue 27): the main draw decides them, side brackets rank among themselves.

Brackets are built and played by the pairing core (``tournaments.pairing.knockout``) the way
the pairing manager stages them — every playable match at once, a busy player's match waits —
and ranked by the standings core; hypothesis plays every option with any winners.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import knockout as ko
from tournaments.standings import Match, Player, StandingsOptions, System, compute_standings
from tournaments.standings.prizes import award_prizes

CUP = StandingsOptions(system=System.KNOCKOUT)


def _play(size: int, options: ko.KnockoutOptions, decide) -> tuple[list[Match], ko.Bracket, dict]:
    """Stage after stage as the pairing manager does; ``decide(match, a, b)`` → the winner."""
    bracket = ko.build_knockout([ko.KnockoutEntrant(i, 0, i) for i in range(1, size + 1)], options)
    results: dict[str, int] = {}
    scheduled: set[str] = set()
    matches: list[Match] = []
    stage = 0
    while True:
        states = ko.resolve(bracket, results)
        ready = [s for s in states.values() if s.status == ko.PLAYABLE and s.match.id not in scheduled]
        if stage == 0:
            ready += [s for s in states.values()
                      if s.status == ko.WALKOVER and s.match.round == 1 and s.match.bracket == ko.MAIN]  # fmt: skip
        if not ready:
            return matches, bracket, results
        stage += 1
        busy: set[int] = set()
        for s in sorted(ready, key=lambda s: (s.match.bracket != ko.MAIN, s.match.round, s.match.position)):
            seated = {p for p in (s.a, s.b) if p is not None}
            if busy & seated:
                continue
            busy |= seated
            scheduled.add(s.match.id)
            tag = {"bracket": s.match.bracket, "bracket_round": s.match.round}
            if s.status == ko.WALKOVER:
                matches.append(Match(stage, s.winner, None, winner=s.winner, **tag))
                continue
            winner = decide(s.match, s.a, s.b)
            score = (3, 1) if winner == s.a else (1, 3)
            matches.append(Match(stage, s.a, s.b, *score, winner=winner, **tag))
            results[s.match.id] = winner


def _better_seed(_match, a, b):
    return min(a, b)


def _players(size: int) -> list[Player]:
    return [Player(i, f"Игрок{i}", draw_number=i) for i in range(1, size + 1)]


def _places(table) -> list[tuple[str, int]]:
    return [(r.place_label, r.player.id) for r in table.rows]


def test_cup_ranking_finalist_above_third_place_winner():
    """The third-place match is played in the final's stage (or later): its winner was ranked
    above the finalist by "last round reached"."""
    matches, _b, _r = _play(6, ko.KnockoutOptions(third_place=True), _better_seed)
    table = compute_standings(_players(6), matches, CUP)
    assert _places(table) == [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5–6", 5), ("5–6", 6)]


def test_cup_ranking_progressive_consolation_below_champion():
    matches, _b, _r = _play(6, ko.KnockoutOptions(progressive_consolation=True), _better_seed)
    assert max(m.round for m in matches if m.bracket == ko.PROGRESSIVE) > max(
        m.round for m in matches if m.bracket == ko.MAIN
    )  # the losers' draw plays on after the final
    table = compute_standings(_players(6), matches, CUP)
    assert _places(table)[:2] == [("1", 1), ("2", 2)]
    [side] = table.side_tables
    assert side.bracket == ko.PROGRESSIVE and side.rows[0].player.id == 3


def test_cup_ranking_last_chance_is_a_table_of_its_own():
    matches, _b, _r = _play(16, ko.KnockoutOptions(consolation=True, last_chance=True), _better_seed)
    table = compute_standings(_players(16), matches, CUP)
    assert [s.bracket for s in table.side_tables] == [ko.CONSOLATION, ko.LAST_CHANCE]
    consolation, last_chance = table.side_tables
    assert [r.player.id for r in consolation.rows][:2] == [9, 10]
    assert [r.player.id for r in last_chance.rows][:2] == [13, 14]
    assert [r.place_label for r in table.rows][8:] == ["9–16"] * 8


def test_cup_ranking_stage_shown_is_the_brackets_own():
    """The stage a table shows is reached in its own bracket (the final is main round 3)."""
    matches, _b, _r = _play(8, ko.KnockoutOptions(consolation=True), _better_seed)
    table = compute_standings(_players(8), matches, CUP)
    assert [r.values["stage"] for r in table.rows] == [7, 6, 4, 4, 2, 2, 2, 2]
    assert [r.values["stage"] for r in table.side_tables[0].rows] == [5, 4, 2, 2]


def test_cup_prizes_follow_places():
    """A cup has no wins column: the "equal when level on the main score" rule used to pool
    every prize over the whole field. Now the places decide, shared places pool theirs."""
    matches, _b, _r = _play(6, ko.KnockoutOptions(), _better_seed)
    table = compute_standings(_players(6), matches, CUP)
    paid = award_prizes(table, {1: 300_000, 2: 200_000, 3: 100_000}, "equal")
    assert paid == {1: 300_000, 2: 200_000, 3: 50_000, 4: 50_000}


OPTIONS = st.sampled_from(
    [
        ko.KnockoutOptions(),
        ko.KnockoutOptions(third_place=True),
        ko.KnockoutOptions(consolation=True),
        ko.KnockoutOptions(consolation=True, last_chance=True, third_place=True),
        ko.KnockoutOptions(progressive_consolation=True),  # not with third_place: refused together (issue 43)
        ko.KnockoutOptions(double_elimination=True),
        ko.KnockoutOptions(double_elimination=True, single_grand_final=True),
    ]
)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(min_value=2, max_value=12), options=OPTIONS, data=st.data())
def test_cup_ranking_puts_champion_first_and_finalist_second_whatever_the_results(size, options, data):
    def decide(match, a, b):
        return data.draw(st.sampled_from([a, b]), label=match.id)

    matches, bracket, results = _play(size, options, decide)
    table = compute_standings(_players(size), matches, CUP)
    champion = ko.champion(bracket, results)
    decisive = [m for m in matches if m.bracket in ("", ko.MAIN, ko.GRAND_FINAL) and m.player_b is not None]
    final = max(decisive, key=lambda m: (m.bracket == ko.GRAND_FINAL, m.bracket_round), default=None)
    assert table.rows[0].player.id == champion and not table.rows[0].shared
    if final is not None and champion in (final.player_a, final.player_b):
        finalist = final.player_b if final.winner == final.player_a else final.player_a
        assert (table.rows[1].player.id, table.rows[1].place_label) == (finalist, "2")
    # every player is in the main table once; places are consistent with the rows' order
    assert sorted(r.player.id for r in table.rows) == list(range(1, size + 1))
    assert all(a.place <= b.place for a, b in zip(table.rows, table.rows[1:], strict=False))
    for a, b in zip(table.rows, table.rows[1:], strict=False):
        if a.place == b.place:
            assert a.values == b.values  # a shared place shows the same stage
    # side brackets never move a main place: the main table is the same without them
    main_only = compute_standings(_players(size), [m for m in matches if m.bracket not in
                                                   (ko.CONSOLATION, ko.LAST_CHANCE, ko.PROGRESSIVE)], CUP)  # fmt: skip
    assert _places(main_only) == _places(table)
    for side in table.side_tables:
        seated = {p for m in matches if m.bracket == side.bracket for p in (m.player_a, m.player_b)}
        assert {r.player.id for r in side.rows} == seated - {None}
        winner = ko.side_champion(bracket, results, side.bracket)
        if winner is not None:
            assert side.rows[0].player.id == winner and side.rows[0].place_label == "1"


@settings(max_examples=40, deadline=None)
@given(size=st.integers(min_value=3, max_value=16), third=st.booleans(), data=st.data())
def test_cup_ranking_players_out_in_the_same_main_round_share_a_range(size, third, data):
    def decide(match, a, b):
        return data.draw(st.sampled_from([a, b]), label=match.id)

    matches, _bracket, _results = _play(size, ko.KnockoutOptions(third_place=third), decide)
    table = compute_standings(_players(size), matches, CUP)
    out_in: dict[int, int] = {}
    for m in matches:
        if m.bracket == ko.MAIN and m.player_b is not None:
            out_in[m.player_b if m.winner == m.player_a else m.player_a] = m.bracket_round
    by_round: dict[int, set[str]] = {}
    for r in table.rows:
        if r.player.id in out_in:
            by_round.setdefault(out_in[r.player.id], set()).add(r.place_label)
    final_round = max(by_round)
    for rnd, labels in by_round.items():
        if third and rnd == final_round - 1 and rnd >= 1 and len(labels) == 2:
            assert labels == {"3", "4"}  # the third-place match decided them
        else:
            assert len(labels) == 1, (rnd, labels)  # one shared range per main round
    # out later ranks higher
    order = [out_in.get(r.player.id, final_round + 1) for r in table.rows]
    assert order == sorted(order, reverse=True)


def test_cup_without_brackets_still_ranks_by_round_reached():
    """A cup entered round by round (no drawn bracket): its matches are the main draw."""
    matches = [Match(1, 1, 2, 3, 1, winner=1), Match(1, 3, 4, 3, 1, winner=3), Match(2, 1, 3, 3, 1, winner=1)]
    table = compute_standings(_players(4), matches, CUP)
    assert _places(table) == [("1", 1), ("2", 3), ("3–4", 2), ("3–4", 4)]
    tagged = [replace(m, bracket=ko.MAIN) for m in matches]
    assert _places(compute_standings(_players(4), tagged, CUP)) == _places(table)


def test_cup_criteria_listed_after_the_stage_split_a_shared_place():
    """By default the quarter-final losers share 5–8; an organiser who lists game points
    after the stage has them split by points (places stay within the bracket's range)."""
    matches, _b, _r = _play(8, ko.KnockoutOptions(), lambda m, a, b: min(a, b))
    matches = [replace(m, score_b=2) if m.player_b == 8 else m for m in matches]
    plain = compute_standings(_players(8), matches, CUP)
    assert [r.place_label for r in plain.rows][4:] == ["5–8"] * 4
    by_points = compute_standings(_players(8), matches, replace(CUP, tiebreaks=("stage", "points")))
    assert _places(by_points)[:4] == _places(plain)[:4]
    assert _places(by_points)[4] == ("5", 8) and [r.place_label for r in by_points.rows][5:] == ["6–8"] * 3
