"""The FIBS core against an independent, straightforward implementation and its properties.

The reference below follows the FIBS server's own wording (rating difference D,
the underdog's chance P_upset, winner +, loser −) rather than the core's
expected-score form, so agreement to 1e-6 checks the algebra as well as the code.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.ratings.fibs import Standing, k_factor, rate, rating_change, win_probability
from clubs.ratings.history import RatedMatch, replay
from scoring.rules.errors import RuleViolation


def fibs_reference(start, matches):
    """Straight from FIBS ``help formula``; a level games match uses ½ − E by hand."""
    ratings = {name: r for name, (r, _e) in (start or {}).items()}
    experience = {name: e for name, (_r, e) in (start or {}).items()}
    for a, b, n, x, y, games in matches:
        ra, rb = ratings.get(a, 1500.0), ratings.get(b, 1500.0)
        ea, eb = experience.get(a, 0), experience.get(b, 0)
        ka, kb = max(1, -ea / 100 + 5), max(1, -eb / 100 + 5)
        if games and x == y:
            e_a = 1 / (10 ** ((rb - ra) * math.sqrt(n) / 2000) + 1)
            da = 4 * ka * math.sqrt(n) * (0.5 - e_a)
            db = 4 * kb * math.sqrt(n) * (0.5 - (1 - e_a))
        else:
            a_won = x > y if games else x >= n
            winner_r, loser_r = (ra, rb) if a_won else (rb, ra)
            d = abs(ra - rb)
            p_upset = 1 / (10 ** (d * math.sqrt(n) / 2000) + 1)
            p = p_upset if winner_r >= loser_r else 1 - p_upset
            k_win, k_lose = (ka, kb) if a_won else (kb, ka)
            gain, loss = 4 * k_win * math.sqrt(n) * p, -4 * k_lose * math.sqrt(n) * p
            da, db = (gain, loss) if a_won else (loss, gain)
        ratings[a], ratings[b] = ra + da, rb + db
        experience[a], experience[b] = ea + n, eb + n
    return ratings, experience


NAMES = [f"p{i}" for i in range(12)]


@st.composite
def histories(draw, max_matches=300):
    count = draw(st.integers(min_value=1, max_value=max_matches))
    out = []
    for _ in range(count):
        a, b = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
        if draw(st.booleans()):
            n = draw(st.integers(1, 25))
            loser = draw(st.integers(0, n - 1))
            winner = n + draw(st.integers(0, 3))
            x, y = (winner, loser) if draw(st.booleans()) else (loser, winner)
            out.append((a, b, n, x, y, False))
        else:
            n = draw(st.integers(1, 12))
            halves = draw(st.integers(0, 2 * n))
            x = halves / 2
            out.append((a, b, n, x, n - x, True))
    return out


starts = st.dictionaries(
    st.sampled_from(NAMES),
    st.tuples(st.floats(800, 2300), st.integers(0, 3000)),
    max_size=len(NAMES),
)


@pytest.mark.long
@settings(max_examples=60, deadline=None)
@given(histories(), starts)
def test_replay_agrees_with_the_fibs_wording_to_1e_6(history, start):
    table, _ = replay(
        {k: Standing(r, e) for k, (r, e) in start.items()},
        [RatedMatch(a, b, n, x, y, g) for a, b, n, x, y, g in history],
    )
    ratings, experience = fibs_reference(start, history)
    assert set(table) == set(ratings)
    for name, standing in table.items():
        assert standing.rating == pytest.approx(ratings[name], abs=1e-6)
        assert standing.experience == experience[name]


@settings(max_examples=100, deadline=None)
@given(st.floats(800, 2300), st.floats(800, 2300), st.integers(0, 5000), st.integers(1, 25),
       st.sampled_from([0.0, 0.5, 1.0]))  # fmt: skip
def test_zero_sum_when_k_is_equal_and_symmetric(ra, rb, exp, n, s):
    a, b = rate(Standing(ra, exp), Standing(rb, exp), n, s)
    assert (a.rating - ra) + (b.rating - rb) == pytest.approx(0, abs=1e-9)
    # symmetry: swapping the players swaps the outcomes
    b2, a2 = rate(Standing(rb, exp), Standing(ra, exp), n, 1 - s)
    assert a2.rating == pytest.approx(a.rating, abs=1e-9)
    assert b2.rating == pytest.approx(b.rating, abs=1e-9)
    assert win_probability(ra, rb, n) + win_probability(rb, ra, n) == pytest.approx(1)


@settings(max_examples=60, deadline=None)
@given(histories(max_matches=40))
def test_experience_grows_by_n_for_both_players(history):
    table, changes = replay(None, [RatedMatch(*m) for m in history])
    for name in table:
        played = sum(n for a, b, n, *_ in history if name in (a, b))
        assert table[name].experience == played
    assert len(changes) == 2 * len(history)


def test_order_matters():
    """The same two results in the other order give other ratings (experience and rating move)."""
    first = RatedMatch("A", "B", 5, 5, 2)
    second = RatedMatch("A", "C", 7, 3, 7)
    one, _ = replay(None, [first, second])
    two, _ = replay(None, [second, first])
    assert one["A"].rating != pytest.approx(two["A"].rating, abs=1e-6)
    assert one["A"].experience == two["A"].experience == 12


def test_known_values():
    """Equal newcomers, 5-point match: E = ½, K = 5, dR = 4·5·√5·½ = 10√5 ≈ 22.36."""
    a, b = rate(Standing(), Standing(), 5, 1.0)
    assert a.rating == pytest.approx(1500 + 10 * math.sqrt(5))
    assert b.rating == pytest.approx(1500 - 10 * math.sqrt(5))
    assert (a.experience, b.experience) == (5, 5)
    assert k_factor(0) == 5 and k_factor(400) == 1 and k_factor(10_000) == 1 and k_factor(250) == 2.5
    # 1850 vs 1750, 1-point match, experienced: favourite's E ≈ 0.5288 (the FAQ's .529 table)
    assert win_probability(1850, 1750, 1) == pytest.approx(0.5288, abs=1e-4)
    assert rating_change(1850, 1750, 1000, 1, 1.0) == pytest.approx(4 * (1 - 0.52876), abs=1e-3)
    # a level fixed-games match moves the lower-rated player up
    low, high = rate(Standing(1400, 500), Standing(1600, 500), 4, 0.5)
    assert low.rating > 1400 and high.rating < 1600


def codes(exc):
    return [p.code for p in exc.value.problems]


def test_bad_input_names_the_match_in_both_languages():
    with pytest.raises(RuleViolation) as exc:
        replay(None, [RatedMatch("Ivanov", "Petrov", 5, 5, 1), RatedMatch("Ivanov", "Sidorov", 5, 5, 5)])
    assert codes(exc) == ["ratings.points_score"]
    problem = exc.value.problems[0]
    assert problem.message("en").startswith("Match 2 (Ivanov – Sidorov): 5:5 cannot end a match to 5")
    assert problem.message("ru").startswith("Матч 2 (Ivanov – Sidorov): счёт 5:5")


@pytest.mark.parametrize(
    ("match", "code"),
    [
        (RatedMatch("A", "B", 5, 3, 4), "ratings.points_score"),
        (RatedMatch("A", "B", 0, 0, 0), "ratings.bad_length"),
        (RatedMatch("A", "B", 2.5, 3, 0), "ratings.bad_length"),
        (RatedMatch("A", "B", 5, -1, 5), "ratings.bad_score"),
        (RatedMatch("A", "B", 5, "5", 0), "ratings.bad_score"),
        (RatedMatch("A", "A", 5, 5, 0), "ratings.same_player"),
        (RatedMatch("A", "B", 4, 3, 2, games=True), "ratings.games_score"),
        (RatedMatch("A", "B", 4, 5, -1, games=True), "ratings.bad_score"),
        (RatedMatch("A", "B", 4, 4.25, -0.25, games=True), "ratings.bad_score"),
        (RatedMatch("A", "B", 3, 1.25, 1.75, games=True), "ratings.games_score"),
    ],
)
def test_a_score_that_cannot_end_the_match_is_refused(match, code):
    with pytest.raises(RuleViolation) as exc:
        replay(None, [match])
    assert code in codes(exc)


def test_strict_start_refuses_an_unknown_player_and_bad_start_rows():
    start = {"A": Standing(1600, 50), "B": Standing(1500, 0)}
    with pytest.raises(RuleViolation) as exc:
        replay(start, [RatedMatch("A", "C", 3, 3, 0)], strict=True)
    assert codes(exc) == ["ratings.unknown_player"]
    assert "C" in exc.value.problems[0].message("en")
    replay(start, [RatedMatch("A", "C", 3, 3, 0)])  # not strict: C is a newcomer
    with pytest.raises(RuleViolation) as exc:
        replay({"A": Standing(1500, -3), "B": Standing(float("nan"), 0)}, [])
    assert sorted(codes(exc)) == ["ratings.bad_experience", "ratings.bad_rating"]


def test_every_bad_match_is_reported_not_just_the_first():
    with pytest.raises(RuleViolation) as exc:
        replay(None, [RatedMatch("A", "B", 3, 1, 1), RatedMatch("A", "B", 3, 3, 0),
                      RatedMatch("A", "B", 0, 0, 0)])  # fmt: skip
    assert codes(exc) == ["ratings.points_score", "ratings.bad_length"]
    assert "Match 3" in exc.value.problems[1].message("en")


def test_changes_carry_what_the_history_page_shows():
    _, changes = replay(None, [RatedMatch("A", "B", 5, 5, 3)])
    a, b = changes
    assert (a.player, a.opponent, a.score_for, a.score_against, a.result) == ("A", "B", 5, 3, 1.0)
    assert (b.player, b.result, b.expected) == ("B", 0.0, 0.5)
    assert a.delta == pytest.approx(-b.delta)
