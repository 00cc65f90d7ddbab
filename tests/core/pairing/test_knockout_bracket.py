"""Knockout: byes and seeds, match lengths, side brackets receive exactly the right players."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.pairing.knockout import (
    CONSOLATION,
    DONE,
    LAST_CHANCE,
    LOSERS,
    MAIN,
    NOBODY,
    PLAYABLE,
    SEED,
    KnockoutEntrant,
    KnockoutOptions,
    advance,
    build_knockout,
    champion,
    playable,
    resolve,
    standard_positions,
)


def entrants(n: int) -> list[KnockoutEntrant]:
    # Ratings fall with the draw number, so rating seeding equals draw-number seeding.
    return [KnockoutEntrant(100 + i, rating=3000 - i, draw_number=i) for i in range(1, n + 1)]


def play_out(bracket, rng: random.Random) -> dict[str, int]:
    results: dict[str, int] = {}
    while True:
        ready = playable(bracket, results)
        if not ready:
            return results
        st_ = ready[0]
        results = advance(bracket, results, st_.match.id, rng.choice([st_.a, st_.b]))


def test_standard_seeding_order_for_sixteen():
    assert standard_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_eleven_players_give_byes_to_the_five_top_seeds():
    b = build_knockout(entrants(11), KnockoutOptions())
    first = [m for m in b.matches if m.bracket == MAIN and m.round == 1]
    byes = [m.a.player for m in first if m.b.kind == NOBODY]
    assert sorted(byes) == [101, 102, 103, 104, 105]
    real = {(m.a.player, m.b.player) for m in first if m.b.kind == SEED}
    assert real == {(108, 109), (106, 111), (107, 110)}
    assert any(n.code == "pairing.why.seed_bye" for m in first for n in m.notes)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=70))
def test_every_player_once_in_round_one_and_byes_only_to_top_seeds(n):
    b = build_knockout(entrants(n), KnockoutOptions(seed_by="draw_number"))
    assert b.size >= n > b.size // 2 or (n == 2 and b.size == 2)
    first = [m for m in b.matches if m.bracket == MAIN and m.round == 1]
    placed = [s.player for m in first for s in (m.a, m.b) if s.kind == SEED]
    assert sorted(placed) == [100 + i for i in range(1, n + 1)]
    bye_seeds = sorted(m.a.player - 100 for m in first if m.b.kind == NOBODY)
    assert bye_seeds == list(range(1, b.size - n + 1))


def test_match_lengths_per_round_and_final():
    opts = KnockoutOptions(match_lengths=(5, 5, 7), final_length=9)
    b = build_knockout(entrants(16), opts)
    lengths = {m.round: m.length for m in b.matches if m.bracket == MAIN}
    assert lengths == {1: 5, 2: 5, 3: 7, 4: 9}


def test_random_seeding_is_reproducible_from_its_seed():
    one = build_knockout(entrants(12), KnockoutOptions(seed_by="random", random_seed="abc"))
    two = build_knockout(entrants(12), KnockoutOptions(seed_by="random", random_seed="abc"))
    other = build_knockout(entrants(12), KnockoutOptions(seed_by="random", random_seed="xyz"))
    assert one.seeds == two.seeds and sorted(one.seeds) == sorted(other.seeds)
    assert one.seeds != other.seeds


def _first_played(states, bracket_name, player):
    for s in sorted(states.values(), key=lambda s: s.match.round):
        if s.match.bracket == bracket_name and s.status == DONE and player in (s.a, s.b):
            return s
    return None


def _entered(states, bracket_name):
    return {
        x
        for s in states.values()
        if s.match.bracket == bracket_name and s.match.round == 1
        for x in (s.a, s.b)
        if x is not None
    }


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=3, max_value=40), seed=st.integers(min_value=0, max_value=9999))
def test_consolation_and_last_chance_receive_exactly_first_match_losers(n, seed):
    opts = KnockoutOptions(consolation=True, last_chance=True, third_place=True)
    b = build_knockout(entrants(n), opts)
    results = play_out(b, random.Random(seed))
    states = resolve(b, results)
    assert not [s for s in states.values() if s.status == PLAYABLE]
    assert champion(b, results) is not None
    players = [100 + i for i in range(1, n + 1)]
    lost_first = {
        p for p in players if (s := _first_played(states, MAIN, p)) is not None and s.loser == p
    }
    assert _entered(states, CONSOLATION) == lost_first
    cons_lost_first = {
        p
        for p in lost_first
        if (s := _first_played(states, CONSOLATION, p)) is not None and s.loser == p
    }
    if any(m.bracket == LAST_CHANCE for m in b.matches):
        assert _entered(states, LAST_CHANCE) == cons_lost_first


def test_player_who_lost_right_after_a_bye_goes_to_consolation():
    b = build_knockout(entrants(3), KnockoutOptions(consolation=True))
    # Seed 1 has a bye, 2 v 3 play; then seed 1 loses the final right after the bye.
    results = advance(b, {}, "M1-2", 102)
    results = advance(b, results, "M2-1", 102)
    states = resolve(b, results)
    assert _entered(states, CONSOLATION) == {101, 103}
    assert [s.match.id for s in playable(b, results)] == ["C1-1"]


def test_third_place_match_is_between_the_semi_final_losers():
    b = build_knockout(entrants(8), KnockoutOptions(third_place=True))
    results = play_out(b, random.Random(4))
    states = resolve(b, results)
    semis = [s for s in states.values() if s.match.bracket == MAIN and s.match.round == 2]
    third = states["3P"]
    assert {third.a, third.b} == {s.loser for s in semis}


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=2, max_value=33), seed=st.integers(min_value=0, max_value=9999))
def test_double_elimination_knocks_out_after_two_losses(n, seed):
    b = build_knockout(entrants(n), KnockoutOptions(double_elimination=True))
    results = play_out(b, random.Random(seed))
    states = resolve(b, results)
    losses = Counter(s.loser for s in states.values() if s.status == DONE)
    winner = champion(b, results)
    assert winner is not None and losses[winner] <= 1
    final = states["GF"]
    for p in (100 + i for i in range(1, n + 1)):
        if p not in (winner, final.loser):
            assert losses[p] == 2, p
    main_losers = {s.loser for s in states.values() if s.match.bracket == MAIN and s.loser}
    lb_players = {x for s in states.values() if s.match.bracket == LOSERS for x in (s.a, s.b)}
    assert main_losers <= lb_players | {final.b}  # every main-bracket loser gets a second life


def test_results_are_validated():
    b = build_knockout(entrants(4), KnockoutOptions())
    with pytest.raises(RuleViolation) as err:
        advance(b, {}, "M2-1", 101)
    assert err.value.problems[0].code == "pairing.knockout.not_playable"
    with pytest.raises(RuleViolation) as err:
        advance(b, {}, "M1-1", 102)
    assert err.value.problems[0].code == "pairing.knockout.wrong_winner"


def test_correcting_a_result_drops_results_that_depended_on_it():
    b = build_knockout(entrants(4), KnockoutOptions())
    r = advance(b, {}, "M1-1", 101)
    r = advance(b, r, "M1-2", 102)
    r = advance(b, r, "M2-1", 101)
    corrected = advance(b, r, "M1-1", 104)
    assert "M2-1" not in corrected and corrected["M1-1"] == 104


def test_invalid_options_are_reported_together():
    with pytest.raises(RuleViolation) as err:
        build_knockout(
            entrants(1),
            KnockoutOptions(
                seed_by="luck", last_chance=True, double_elimination=True, consolation=True
            ),  # fmt: skip
        )
    codes = {p.code for p in err.value.problems}
    assert codes == {
        "pairing.options.invalid",
        "pairing.knockout.double_and_consolation",
        "pairing.knockout.too_few",
    }
