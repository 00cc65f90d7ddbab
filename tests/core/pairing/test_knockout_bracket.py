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
    PROGRESSIVE,
    SEED,
    VOID,
    KnockoutEntrant,
    KnockoutOptions,
    advance,
    build_knockout,
    champion,
    playable,
    resolve,
    side_champion,
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
    # With the grand-final reset everyone but the champion is out after exactly two losses,
    # the winners'-bracket finalist included; the champion is the only one with fewer.
    for p in (100 + i for i in range(1, n + 1)):
        if p != winner:
            assert losses[p] == 2, p
    final = states["GF"]
    main_losers = {s.loser for s in states.values() if s.match.bracket == MAIN and s.loser}
    lb_players = {x for s in states.values() if s.match.bracket == LOSERS for x in (s.a, s.b)}
    assert main_losers <= lb_players | {final.b}  # every main-bracket loser gets a second life


def _eliminated_after(states, player) -> int | None:
    """How many losses a player had when they played their last match (None: never played)."""
    played = [s for s in states.values() if s.status == DONE and player in (s.a, s.b)]
    if not played:
        return None
    return sum(1 for s in played if s.loser == player)


def test_grand_final_reset_is_played_only_when_the_losers_bracket_champion_wins():
    b = build_knockout(entrants(4), KnockoutOptions(double_elimination=True))
    r = advance(b, {}, "M1-1", 101)
    r = advance(b, r, "M1-2", 102)
    r = advance(b, r, "M2-1", 101)  # 101 wins the winners' bracket
    r = advance(b, r, "L1-1", 104)
    r = advance(b, r, "L2-1", 102)  # 102 (lost the final) wins the losers' bracket
    gf = resolve(b, r)["GF"]
    assert (gf.a, gf.b) == (101, 102)
    lb_wins = advance(b, r, "GF", 102)
    assert champion(b, lb_wins) is None  # 101 has lost once only: the reset decides
    reset = resolve(b, lb_wins)["GF2"]
    assert reset.status == PLAYABLE and {reset.a, reset.b} == {101, 102}
    assert champion(b, advance(b, lb_wins, "GF2", 101)) == 101
    wb_wins = advance(b, r, "GF", 101)
    assert resolve(b, wb_wins)["GF2"].status == VOID and champion(b, wb_wins) == 101


def test_grand_final_without_reset_is_an_option():
    b = build_knockout(entrants(4), KnockoutOptions(double_elimination=True, single_grand_final=True))
    assert "GF2" not in {m.id for m in b.matches}


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=9999),
    kind=st.sampled_from(["single", "double", "progressive"]),
)
def test_every_format_has_one_champion_and_eliminates_after_the_nth_loss(n, seed, kind):
    opts = {
        "single": KnockoutOptions(),
        "double": KnockoutOptions(double_elimination=True),
        "progressive": KnockoutOptions(progressive_consolation=True),
    }[kind]
    b = build_knockout(entrants(n), opts)
    results = play_out(b, random.Random(seed))
    states = resolve(b, results)
    assert not [s for s in states.values() if s.status == PLAYABLE]
    winner = champion(b, results)
    players = [100 + i for i in range(1, n + 1)]
    assert winner in players
    # Unique: nobody else is unbeaten where the champion's bracket decides it.
    assert [p for p in players if _eliminated_after(states, p) in (None, 0)] in ([winner], [])
    needed = 2 if kind == "double" else 1
    for p in players:
        if p == winner:
            continue
        main_losses = [s for s in states.values() if s.loser == p and s.match.bracket == MAIN]
        if kind == "double":
            assert _eliminated_after(states, p) == needed, p
        else:
            assert len(main_losses) == 1, p  # out of the main draw after exactly one loss
    # Seeds 1 and 2 are in opposite halves: they can meet only in the main final.
    top = max(m.round for m in b.matches if m.bracket == MAIN)
    for s in states.values():
        if s.match.bracket == MAIN and {s.a, s.b} == {101, 102}:
            assert s.match.round == top


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=3, max_value=40), seed=st.integers(min_value=0, max_value=9999))
def test_progressive_consolation_takes_the_losers_of_every_main_round_but_the_final(n, seed):
    b = build_knockout(entrants(n), KnockoutOptions(progressive_consolation=True))
    results = play_out(b, random.Random(seed))
    states = resolve(b, results)
    top = max(m.round for m in b.matches if m.bracket == MAIN)
    in_side = {x for s in states.values() if s.match.bracket == PROGRESSIVE for x in (s.a, s.b)}
    for s in states.values():
        if s.match.bracket == MAIN and s.status == DONE and s.match.round < top:
            assert s.loser in in_side, (s.match.id, s.loser)
    # A player enters it at the level of their main-round loss, never earlier.
    for s in states.values():
        if s.match.bracket == MAIN and s.status == DONE and s.match.round < top:
            first = min(
                t.match.round
                for t in states.values()
                if t.match.bracket == PROGRESSIVE and s.loser in (t.a, t.b)
            )
            assert first >= 2 * s.match.round - 2
    cons = side_champion(b, results, PROGRESSIVE)
    assert cons is not None and cons != champion(b, results)
    # Everyone but the two finalists and the consolation winner is out after two losses.
    final = states[f"M{top}-1"]
    for p in (100 + i for i in range(1, n + 1)):
        if p not in (final.a, final.b, cons) and _eliminated_after(states, p) is not None:
            assert _eliminated_after(states, p) == 2, p


def test_progressive_consolation_of_eight():
    b = build_knockout(entrants(8), KnockoutOptions(progressive_consolation=True))
    ids = [m.id for m in b.matches if m.bracket == PROGRESSIVE]
    # 4 first-round losers → 2; + 2 semi-final losers → 2 → 1: the consolation winner.
    assert ids == ["P1-1", "P1-2", "P2-1", "P2-2", "P3-1"]
    with pytest.raises(RuleViolation) as err:
        build_knockout(entrants(8), KnockoutOptions(progressive_consolation=True, consolation=True))
    assert err.value.problems[0].code == "pairing.knockout.progressive_and_other"


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
