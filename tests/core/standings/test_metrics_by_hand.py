"""Every metric against values computed by hand (see conftest.py for the event).

Byes use the virtual opponent unless said otherwise: the player's wins before
the bye round, 0 for the bye round, then ½ a win for each round left (3 rounds):
    E's bye in R1: 0 + 0 + 0.5·2 = 1.0
    D's bye in R2: 0 + 0 + 0.5·1 = 0.5
    B's bye in R3: 0 + 0 + 0     = 0.0
"""

from __future__ import annotations

import pytest

from tournaments.standings import (
    ByeValue,
    Match,
    MatchStatus,
    Player,
    StandingsOptions,
    System,
    compute_standings,
    get_metric,
)
from tournaments.standings.ledger import Ledger

SWISS = StandingsOptions(system=System.SWISS)


def values(players, matches, key, options=SWISS):
    from tournaments.standings.ranking import resolve_options

    ledger = Ledger(players, matches, resolve_options(options), get_metric)
    named = {p.id: p.name_ru for p in players}
    return {named[pid]: v for pid, v in ledger.values(key).items()}


def test_match_wins_count_a_bye_as_a_win(small_swiss):
    assert values(*small_swiss, "wins") == {"A": 2, "B": 1, "C": 3, "D": 1, "E": 2}


def test_bye_can_be_set_not_to_count_as_a_win(small_swiss):
    opts = StandingsOptions(system=System.SWISS, bye_is_win=False)
    assert values(*small_swiss, "wins", opts) == {"A": 2, "B": 0, "C": 3, "D": 0, "E": 1}


def test_points_scored_against_and_difference(small_swiss):
    # A 5+4+5, B 3+2+5, C 5+5+5, D 1+5+2, E 5+5+3 (byes score 5:0)
    assert values(*small_swiss, "points") == {"A": 14, "B": 10, "C": 15, "D": 8, "E": 13}
    assert values(*small_swiss, "against") == {"A": 10, "B": 10, "C": 8, "D": 10, "E": 7}
    assert values(*small_swiss, "difference") == {"A": 4, "B": 0, "C": 7, "D": -2, "E": 6}


def test_fewer_points_against_ranks_higher(small_swiss):
    """Among players level on the main score (the score always decides first, issue 43:
    ``("against",)`` ranks as ``("wins", "against")`` in a Swiss): E (7 against) before A (10);
    B and D conceded 10 each and share 4–5."""
    st = compute_standings(*small_swiss, StandingsOptions(system=System.SWISS, tiebreaks=("against",)))
    assert st.options.tiebreaks == ("wins", "against")
    assert [r.player.name_ru for r in st.rows] == ["C", "E", "A", "B", "D"]
    assert [r.place_label for r in st.rows] == ["1", "2", "3", "4–5", "4–5"]


def test_gammon_wins(small_swiss):
    assert values(*small_swiss, "gammons") == {"A": 1, "B": 0, "C": 2, "D": 0, "E": 0}


def test_buchholz_with_virtual_opponent_for_byes(small_swiss):
    # A: B1 + C3 + D1 = 5; B: A2 + E2 + bye0 = 4; C: D1 + A2 + E2 = 5
    # D: C3 + bye0.5 + A2 = 5.5; E: bye1 + B1 + C3 = 5
    assert values(*small_swiss, "buchholz") == {"A": 5, "B": 4, "C": 5, "D": 5.5, "E": 5}


@pytest.mark.parametrize(
    ("bye_value", "expected"),
    [
        # the player's own final score stands in for the missing opponent
        (ByeValue.OWN, {"A": 5, "B": 5, "C": 5, "D": 6, "E": 6}),
        # a bye adds nothing
        (ByeValue.ZERO, {"A": 5, "B": 4, "C": 5, "D": 5, "E": 4}),
    ],
)
def test_buchholz_bye_value_is_an_option(small_swiss, bye_value, expected):
    opts = StandingsOptions(system=System.SWISS, bye_value=bye_value)
    assert values(*small_swiss, "buchholz", opts) == expected


def test_median_buchholz_drops_best_and_worst_opponent(small_swiss):
    # A [1,1,3]→1; B [0,2,2]→2; C [1,2,2]→2; D [0.5,2,3]→2; E [1,1,3]→1
    assert values(*small_swiss, "median_buchholz") == {"A": 1, "B": 2, "C": 2, "D": 2, "E": 1}


def test_median_cut_zero_is_plain_buchholz(small_swiss):
    opts = StandingsOptions(system=System.SWISS, median_cut=0)
    assert values(*small_swiss, "median_buchholz", opts) == values(*small_swiss, "buchholz", opts)


def test_sonneborn_berger_adds_beaten_opponents_scores(small_swiss):
    # A: B1 + D1 = 2; B: only the bye, worth 0 = 0; C: D1 + A2 + E2 = 5
    # D: bye 0.5 = 0.5; E: bye 1 + B1 = 2
    assert values(*small_swiss, "sonneborn_berger") == {
        "A": 2,
        "B": 0,
        "C": 5,
        "D": 0.5,
        "E": 2,
    }


def test_progressive_score_sums_running_wins(small_swiss):
    # A 1,1,2→4; B 0,0,1→1; C 1,2,3→6; D 0,1,1→2; E 1,2,2→5
    assert values(*small_swiss, "progressive") == {"A": 4, "B": 1, "C": 6, "D": 2, "E": 5}


def test_progressive_on_points_basis(small_swiss):
    # A 5, 9, 14 → 28; E 5, 10, 13 → 28; C 5, 10, 15 → 30
    opts = StandingsOptions(system=System.SWISS, score_basis="points")
    got = values(*small_swiss, "progressive", opts)
    assert (got["A"], got["E"], got["C"]) == (28, 28, 30)


def test_swiss_defaults_rank_the_event(small_swiss):
    # C 3 wins; A and E 2 wins level on Buchholz 5, median 1, SB 2 → points 14 > 13;
    # B and D 1 win: Buchholz D 5.5 > B 4.
    st = compute_standings(*small_swiss, SWISS)
    assert [r.player.name_ru for r in st.rows] == ["C", "A", "E", "D", "B"]
    assert st.options.tiebreaks == (
        "wins",
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "points",
    )
    assert st.row(1).values == {
        "wins": 2,
        "buchholz": 5,
        "median_buchholz": 1,
        "sonneborn_berger": 2,
        "points": 14,
    }


def test_pending_matches_do_not_count(small_swiss):
    from dataclasses import replace

    from tournaments.standings import MatchStatus

    players, matches = small_swiss
    matches = [replace(m, status=MatchStatus.PENDING) if m.round == 3 else m for m in matches]
    assert values(players, matches, "wins") == {"A": 1, "B": 0, "C": 2, "D": 1, "E": 2}


def test_every_registered_metric_has_names_in_both_languages():
    from tournaments.standings import all_metrics

    keys = [m.key for m in all_metrics()]
    assert len(keys) == len(set(keys))
    assert set(keys) >= {
        "wins",
        "points",
        "against",
        "difference",
        "h2h",
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "progressive",
        "gammons",
        "stage",
    }
    for m in all_metrics():
        assert m.name("ru") != m.name("en")
        assert get_metric(m.key) is m


def test_a_round_published_with_only_its_bye_does_not_count_as_played_for_buchholz():
    """Round 1 closed (E had the bye), round 2 published with D's bye and no result yet: the
    virtual opponent of E's bye counts only the rounds played (FIDE C.07: n = completed rounds),
    so E's Buchholz stays 0 (was 0.5), and D's round-2 bye point does not yet make D a stronger
    opponent for A (A's stays 0; was 1)."""
    players = [Player(i, name) for i, name in enumerate("ABCDE", start=1)]
    round_one = [Match(1, 1, 4, 5, 2, winner=1), Match(1, 2, 3, 5, 2, winner=2), Match(1, 5, None, 5, 0, winner=5)]
    published = [Match(2, 1, 2, status=MatchStatus.PENDING), Match(2, 3, 5, status=MatchStatus.PENDING),
                 Match(2, 4, None, 5, 0, winner=4)]  # fmt: skip
    before = values(players, round_one, "buchholz")
    assert before == {"A": 0, "B": 0, "C": 1, "D": 1, "E": 0}
    assert values(players, round_one + published, "buchholz") == before


def test_a_round_whose_only_pairing_was_voided_still_counts_as_played_for_buchholz():
    """Round 1: A beats B, C has the bye; round 2: B v C voided (a disqualification voided it
    after it was played), A has the bye. Round 2 was played (FIDE C.07: n counts completed
    rounds; README, "Standings"): A's bye of round 2 counts, valued by the virtual opponent
    1 + (1 − 1) + ½ × (2 − 2) = 1; B has 0 wins (the void counts for nobody). A's Buchholz:
    0 + 1 = 1. It used to be 0: the void hid round 2 and A's bye was left out as a bye of a
    round nobody had played (the referee model of issue 43 found it)."""
    players = [Player(1, "A"), Player(2, "B"), Player(3, "C")]
    matches = [
        Match(1, 1, 2, 3, 1, winner=1), Match(1, 3, None, 1, 0),
        Match(2, 2, 3, 0, 0, kind="void"), Match(2, 1, None, 1, 0),
    ]  # fmt: skip
    assert values(players, matches, "buchholz")["A"] == 1
