"""Swiss pairing: the absolute rules, score groups, floats, byes, statuses, explanations."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing.history import Entrant, TableResult, build_players
from tournaments.pairing.simulate import simulate
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.swiss_input import (
    ABSENT,
    HALF_BYE,
    NO_REMATCH_FREE,
    OK,
    WITHDRAWN,
    PairingInput,
    SwissOptions,
    SwissPlayer,
)


def players(n: int, **kw) -> list[SwissPlayer]:
    return [SwissPlayer(id=i, draw_number=i, **kw) for i in range(1, n + 1)]


def pair_set(res) -> set[frozenset[int]]:
    return {frozenset(p.players) for p in res.pairings}


def rematch_free_exists(ids: list[int], opp: dict[int, set[int]], bye_ok: set[int]) -> bool:
    """Brute force: some bye (to a player who may take it) plus a perfect rematch-free pairing."""

    def perfect(rest: list[int]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            q not in opp[first] and perfect(others[:k] + others[k + 1 :])
            for k, q in enumerate(others)
        )

    if len(ids) % 2 == 0:
        return perfect(ids)
    return any(perfect([x for x in ids if x != b]) for b in ids if b in bye_ok)


# --- round 1 --------------------------------------------------------------------------------


def test_round_one_pairs_adjacent_draw_numbers_as_the_book_does():
    res = pair_swiss(PairingInput(1, tuple(players(8))))
    assert res.status == OK
    assert [(p.a, p.b) for p in res.pairings] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert [p.table for p in res.pairings] == [1, 2, 3, 4]


def test_round_one_odd_field_gives_the_bye_to_the_last_number():
    res = pair_swiss(PairingInput(1, tuple(players(7))))
    assert res.pairing_bye == 7
    assert pair_set(res) == {frozenset(x) for x in [(1, 2), (3, 4), (5, 6)]}
    assert res.byes[0].points == 1.0


def test_round_one_top_half_against_bottom_half_by_rating():
    ps = [SwissPlayer(id=i, draw_number=i, rating=1000 + 10 * i) for i in range(1, 7)]
    opts = SwissOptions(first_round="top_vs_bottom", seed_by="rating")
    res = pair_swiss(PairingInput(1, tuple(ps), opts))
    # by rating: 6,5,4 | 3,2,1
    assert [(p.a, p.b) for p in res.pairings] == [(6, 3), (5, 2), (4, 1)]


# --- score groups and floats ----------------------------------------------------------------


def test_later_rounds_pair_equal_scores_top_half_against_bottom_half():
    ps = [
        SwissPlayer(id=i, draw_number=i, match_points=1.0 if i <= 4 else 0.0) for i in range(1, 9)
    ]
    res = pair_swiss(PairingInput(2, tuple(ps)))
    assert pair_set(res) == {frozenset(x) for x in [(1, 3), (2, 4), (5, 7), (6, 8)]}
    assert all(n.code == "pairing.why.same_group" for p in res.pairings for n in p.notes[:1])


def test_odd_group_floats_its_lowest_player_who_did_not_float_down_last_round():
    # Group 2: players 1,2,3; player 3 floated down last round, so 2 must float instead.
    ps = [
        SwissPlayer(1, 1, match_points=2.0, floats=(None, None)),
        SwissPlayer(2, 2, match_points=2.0, floats=(None, None)),
        SwissPlayer(3, 3, match_points=2.0, floats=(None, "down")),
        SwissPlayer(4, 4, match_points=1.0),
        SwissPlayer(5, 5, match_points=1.0),
        SwissPlayer(6, 6, match_points=1.0),
    ]
    res = pair_swiss(PairingInput(3, tuple(ps)))
    assert res.status == OK
    assert frozenset((1, 3)) in pair_set(res)
    floated = next(p for p in res.pairings if 2 in p.players)
    assert {n.code for n in floated.notes} >= {"pairing.why.float_down", "pairing.why.float_up"}
    assert floated.a == 2 and floated.b == 4  # the floater meets the top of the group below
    top_group = res.groups[0]
    assert top_group.score == 2.0 and top_group.floated_out == (2,)


def test_rematch_is_avoided_by_taking_the_next_bottom_half_player_and_explained():
    ps = [
        SwissPlayer(1, 1, match_points=1.0, opponents=(3,)),
        SwissPlayer(2, 2, match_points=1.0),
        SwissPlayer(3, 3, match_points=1.0, opponents=(1,)),
        SwissPlayer(4, 4, match_points=1.0),
    ]
    res = pair_swiss(PairingInput(2, tuple(ps)))
    assert pair_set(res) == {frozenset((1, 4)), frozenset((2, 3))}
    codes = {n.code for p in res.pairings for n in p.notes}
    assert "pairing.why.rematch_avoided" in codes


def test_floater_who_met_the_whole_group_below_floats_further():
    # 1 is alone on 2 points and has met 2 and 3 (the 1-point group): it must meet 4 (0 points).
    ps = [
        SwissPlayer(1, 1, match_points=2.0, opponents=(2, 3)),
        SwissPlayer(2, 2, match_points=1.0, opponents=(1, 4)),
        SwissPlayer(3, 3, match_points=1.0, opponents=(4, 1)),
        SwissPlayer(4, 4, match_points=0.0, opponents=(3, 2)),
    ]
    res = pair_swiss(PairingInput(3, tuple(ps)))
    assert res.status == OK
    assert pair_set(res) == {frozenset((1, 4)), frozenset((2, 3))}


def test_game_points_option_groups_by_points_scored_in_matches():
    ps = [
        SwissPlayer(1, 1, match_points=1.0, game_points=3.0),
        SwissPlayer(2, 2, match_points=1.0, game_points=9.0),
        SwissPlayer(3, 3, match_points=0.0, game_points=9.0),
        SwissPlayer(4, 4, match_points=0.0, game_points=3.0),
    ]
    by_wins = pair_swiss(PairingInput(2, tuple(ps)))
    by_points = pair_swiss(PairingInput(2, tuple(ps), SwissOptions(score="game_points")))
    assert pair_set(by_wins) == {frozenset((1, 2)), frozenset((3, 4))}
    assert pair_set(by_points) == {frozenset((2, 3)), frozenset((1, 4))}


# --- byes and statuses ----------------------------------------------------------------------


def test_bye_goes_to_lowest_ranked_player_without_a_bye_and_is_worth_the_option():
    ps = [
        SwissPlayer(1, 1, match_points=1.0),
        SwissPlayer(2, 2, match_points=1.0),
        SwissPlayer(3, 3, match_points=1.0),
        SwissPlayer(4, 4, match_points=0.0),
        SwissPlayer(5, 5, match_points=1.0, bye_rounds=(1,)),
    ]
    res = pair_swiss(PairingInput(2, tuple(ps), SwissOptions(bye_points=0.5)))
    assert res.pairing_bye == 4
    assert res.byes[0].points == 0.5


def test_statuses_withdrawn_absent_and_requested_half_point_bye_are_not_paired():
    ps = players(4) + [
        SwissPlayer(5, 5, status=WITHDRAWN),
        SwissPlayer(6, 6, status=ABSENT),
        SwissPlayer(7, 7, status=HALF_BYE),
        SwissPlayer(8, 8),  # a late entry with no history
    ]
    res = pair_swiss(PairingInput(3, tuple(ps)))
    paired = {x for p in res.pairings for x in p.players}
    assert paired == {1, 2, 3, 4, 8} - {res.pairing_bye}
    kinds = {b.player: (b.kind, b.points) for b in res.byes}
    assert kinds[6] == ("absent", 0.0)
    assert kinds[7] == ("requested", 0.5)
    assert 5 not in kinds and 5 not in paired


def test_no_rematch_free_pairing_is_a_structured_outcome_not_an_error():
    # Four players who have all met: round 4 cannot be paired without rematches.
    everyone = {i: tuple(j for j in range(1, 5) if j != i) for i in range(1, 5)}
    ps = tuple(SwissPlayer(i, i, opponents=everyone[i]) for i in range(1, 5))
    res = pair_swiss(PairingInput(4, ps))
    assert res.status == NO_REMATCH_FREE
    assert len(res.pairings) == 2 and all(p.rematch for p in res.pairings)
    assert res.problems[0].code == "pairing.swiss.no_rematch_free"
    assert "повтор" in res.problems[0].ru
    allowed = pair_swiss(PairingInput(4, ps, SwissOptions(allow_rematches=True)))
    assert allowed.status == OK
    assert {n.code for p in allowed.pairings for n in p.notes} >= {"pairing.why.rematch_allowed"}


def test_invalid_options_and_input_are_reported_with_codes():
    res = pair_swiss(
        PairingInput(0, (SwissPlayer(1, 1), SwissPlayer(1, 2)), SwissOptions(score="elo"))
    )
    codes = {p.code for p in res.problems}
    assert codes == {
        "pairing.options.invalid",
        "pairing.swiss.round_invalid",
        "pairing.swiss.duplicate_player",
    }
    assert res.pairings == ()


# --- colours and sections --------------------------------------------------------------------


def test_colours_alternate_for_fixed_game_formats():
    ps = [
        SwissPlayer(1, 1, match_points=1.0, colours=("w",)),
        SwissPlayer(2, 2, match_points=1.0, colours=("b",)),
    ]
    res = pair_swiss(PairingInput(2, tuple(ps), SwissOptions(alternate_colours=True)))
    assert res.pairings[0].white == 2
    plain = pair_swiss(PairingInput(2, tuple(ps)))
    assert plain.pairings[0].white is None


def test_sections_are_paired_separately_with_continuous_tables():
    ps = [SwissPlayer(i, i, section="A") for i in range(1, 5)]
    ps += [SwissPlayer(i, i - 4, section="B") for i in range(5, 9)]
    res = pair_swiss(PairingInput(1, tuple(ps)))
    for p in res.pairings:
        assert p.section == ("A" if p.a <= 4 else "B")
        assert (p.a <= 4) == (p.b <= 4)
    assert [p.table for p in res.pairings] == [1, 2, 3, 4]


# --- properties --------------------------------------------------------------------------------


@st.composite
def small_histories(draw):
    n = draw(st.integers(min_value=2, max_value=9))
    rounds = draw(st.integers(min_value=0, max_value=n))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    entrants = [Entrant(i, i) for i in range(1, n + 1)]
    results: list[TableResult] = []
    for rnd in range(1, rounds + 1):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        if n % 2:
            results.append(TableResult(rnd, order.pop(), None, 1.0, kind="pairing"))
        for k in range(0, len(order), 2):
            a_wins = rng.random() < 0.5
            results.append(TableResult(rnd, order[k], order[k + 1], float(a_wins), 1.0 - a_wins))
    return PairingInput(rounds + 1, build_players(entrants, results))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_histories())
def test_everyone_paired_once_and_no_rematch_whenever_one_can_be_avoided(inp):
    res = pair_swiss(inp)
    ids = [p.id for p in inp.players]
    seen = [x for p in res.pairings for x in p.players] + [b.player for b in res.byes]
    assert sorted(seen) == sorted(ids)
    assert len([b for b in res.byes if b.kind == "pairing"]) == len(ids) % 2
    opp = {p.id: set(p.opponents) for p in inp.players}
    never_had_bye = {p.id for p in inp.players if not p.bye_rounds}
    possible = bool(never_had_bye or len(ids) % 2 == 0) and rematch_free_exists(
        ids, opp, never_had_bye
    )
    if possible:
        assert res.status == OK, res.problems
        assert not any(p.b in opp[p.a] for p in res.pairings)
        if res.pairing_bye is not None:
            assert res.pairing_bye in never_had_bye
    else:
        assert res.status == NO_REMATCH_FREE
        assert res.problems


@pytest.mark.parametrize("n,seed", [(24, 1), (37, 2), (64, 3)])
def test_simulated_tournaments_never_rematch_and_give_at_most_one_bye_each(n, seed):
    byes: dict[int, int] = {}

    def check(inp, res):
        opp = {p.id: set(p.opponents) for p in inp.players}
        assert res.status == OK
        assert not any(p.b in opp[p.a] for p in res.pairings)
        if res.pairing_bye is not None:
            byes[res.pairing_bye] = byes.get(res.pairing_bye, 0) + 1
        scores = {p.id: p.match_points for p in inp.players}
        # Floats are explained: every cross-group table carries the reason.
        for p in res.pairings:
            if scores[p.a] != scores[p.b]:
                assert any(n.code == "pairing.why.float_down" for n in p.notes)

    simulate(n, 11, seed=seed, on_round=check)
    assert all(v == 1 for v in byes.values())
