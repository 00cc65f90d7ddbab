"""Head-to-head inside tied groups, shared places, knockout stages, sections, bad input."""

from __future__ import annotations

import pytest

from scoring.rules.errors import RuleViolation
from tournaments.standings import (
    Match,
    Player,
    StandingsOptions,
    System,
    absolute_champion,
    build_round_crosstable,
    check_matches,
    compute_standings,
    section_standings,
)


def _players(names: str, section: str = "") -> list[Player]:
    return [Player(i + 1, n, n, section=section, draw_number=i + 1) for i, n in enumerate(names)]


def _won(rnd: int, winner: int, loser: int) -> Match:
    return Match(rnd, winner, loser, 5, 3, winner=winner)


def names(st) -> list[str]:
    return [r.player.name_ru for r in st.rows]


def test_a_cycle_of_three_shares_the_places():
    players = _players("ABC")
    matches = [_won(1, 1, 2), _won(2, 2, 3), _won(3, 3, 1)]
    st = compute_standings(players, matches, StandingsOptions(tiebreaks=("wins", "h2h")))
    assert [r.place_label for r in st.rows] == ["1–3"] * 3
    assert names(st) == ["A", "B", "C"]  # listed by draw number


def test_head_to_head_is_reapplied_to_the_group_still_tied():
    # Mini-table of four: A beats C, D; B beats A, C; C beats D; D beats B.
    # First pass: A 2, B 2, C 1, D 1.  Re-applied: B beat A; C beat D.
    players = _players("ABCD")
    a, b, c, d = 1, 2, 3, 4
    matches = [_won(1, a, c), _won(1, d, b), _won(2, a, d), _won(2, b, c)]
    matches += [_won(3, b, a), _won(3, c, d)]
    st = compute_standings(players, matches, StandingsOptions(tiebreaks=("h2h",)))
    assert names(st) == ["B", "A", "C", "D"]
    assert [r.place_label for r in st.rows] == ["1", "2", "3", "4"]


def test_head_to_head_does_not_decide_when_the_tied_players_did_not_all_meet():
    # A, B, C all on one win; A beat B but C met neither of them.
    players = _players("ABCDE")
    matches = [_won(1, 1, 2), _won(1, 3, 4), _won(2, 2, 5), _won(2, 4, 3)]
    opts = StandingsOptions(tiebreaks=("wins", "h2h"))
    st = compute_standings(players, matches, opts)
    tied = [r for r in st.rows if r.values["wins"] == 1]
    assert {r.place_label for r in tied} == {"1–4"}


def test_knockout_ranks_by_stage_reached():
    # Semi-finals (round 1): A beats B, C beats D; final (round 2): A beats C.
    players = _players("ABCD")
    matches = [_won(1, 1, 2), _won(1, 3, 4), _won(2, 1, 3)]
    st = compute_standings(players, matches, StandingsOptions(system=System.KNOCKOUT))
    assert names(st)[:2] == ["A", "C"]
    assert [r.place_label for r in st.rows] == ["1", "2", "3–4", "3–4"]


def test_knockout_finalists_before_the_final_is_played():
    players = _players("ABCD")
    matches = [_won(1, 1, 2), _won(1, 3, 4), Match(2, 1, 3, status="pending")]
    st = compute_standings(players, matches, StandingsOptions(system=System.KNOCKOUT))
    assert [r.place_label for r in st.rows] == ["1–2", "1–2", "3–4", "3–4"]


def _two_sections() -> tuple[list[Player], list[Match]]:
    novices = [Player(1, "Аня", section="novice"), Player(2, "Борис", section="novice")]
    experts = [
        Player(3, "Вера", section="expert"),
        Player(4, "Глеб", section="expert"),
        Player(5, "Дина", section="expert"),
    ]
    matches = [
        Match(1, 1, 2, 5, 1, winner=1),
        Match(1, 3, 4, 11, 7, winner=3),
        Match(2, 3, 5, 11, 2, winner=3),
        Match(3, 4, 5, 11, 9, winner=4),
    ]
    return novices + experts, matches


def test_each_section_has_its_own_standings():
    players, matches = _two_sections()
    by_section = section_standings(players, matches, StandingsOptions(tiebreaks=("wins",)))
    assert list(by_section) == ["novice", "expert"]
    assert names(by_section["novice"]) == ["Аня", "Борис"]
    assert names(by_section["expert"]) == ["Вера", "Глеб", "Дина"]


STRENGTH = {"novice": 2, "expert": 7}


def test_the_absolute_champion_is_the_winner_of_the_strongest_section():
    """Book Part 9: winners in each category, «чемпионом соревнований может быть только
    сильнейший». A beginner with more wins in shorter matches is not above the expert."""
    players, matches = _two_sections()
    # Аня (category 2) wins three 5-point matches; Вера (category 7) only two 11-point ones.
    matches = [*matches, Match(2, 1, 2, 5, 0, winner=1), Match(3, 2, 1, 0, 5, winner=1)]
    opts = StandingsOptions(tiebreaks=("wins",))
    decision = absolute_champion(players, matches, opts, strength=STRENGTH)
    assert decision.overall.rows[0].player.name_ru == "Аня"  # everyone by wins: not the title
    assert decision.champion is not None and decision.champion.name_ru == "Вера"
    assert not decision.playoff_required
    assert [(key, [p.name_ru for p in ps]) for key, ps in decision.winners] == [
        ("expert", ["Вера"]), ("novice", ["Аня"]),
    ]


def test_no_champion_is_named_before_the_event_is_finished():
    players, matches = _two_sections()
    decision = absolute_champion(players, matches, StandingsOptions(tiebreaks=("wins",)),
                                 strength=STRENGTH, finished=False)  # fmt: skip
    assert decision.champion is None and not decision.playoff_required and not decision.finished


def test_absolute_champion_by_play_off_between_section_winners():
    players, matches = _two_sections()
    decision = absolute_champion(
        players, matches, StandingsOptions(tiebreaks=("wins",)), playoff=True, strength=STRENGTH
    )
    assert decision.champion is None
    assert decision.playoff_required
    assert [p.name_ru for p in decision.candidates] == ["Вера", "Аня"]


def test_a_shared_first_place_in_the_strongest_section_calls_for_a_play_off():
    players, matches = _two_sections()
    # Глеб beats Вера in round 4: Вера and Глеб both have 2 wins in the expert section.
    matches = [*matches, Match(4, 4, 3, 11, 5, winner=4)]
    decision = absolute_champion(players, matches, StandingsOptions(tiebreaks=("wins",)), strength=STRENGTH)
    assert decision.playoff_required
    assert {p.name_ru for p in decision.candidates} == {"Вера", "Глеб"}


def test_a_section_nobody_played_in_names_no_winner_and_no_champion():
    """A player entered the strongest section and withdrew before any round was drawn there: the
    section is empty (nobody to pair, no round), so the event finishes without it (README,
    "Winners and the absolute champion") — and it must not name him, who never played, its
    winner and the champion (book Part 9 l.73: «Победители выявляются в каждой категории»: a
    winner is found by play). The referee model found the product naming him."""
    players, matches = _two_sections()
    players = [p for p in players if p.section == "novice"]
    players.append(Player(9, "Ушедший", "Gone", section="expert", draw_number=9, withdrawn=True))
    decision = absolute_champion(players, [m for m in matches if m.player_a in (1, 2)],
                                 StandingsOptions(tiebreaks=("wins",)), strength=STRENGTH)  # fmt: skip
    assert [(key, [p.name_ru for p in ps]) for key, ps in decision.winners] == [("novice", ["Аня"])]
    assert decision.champion is not None and decision.champion.name_ru == "Аня"


def test_sections_of_unknown_strength_are_equal_their_winners_meet():
    players, matches = _two_sections()
    decision = absolute_champion(players, matches, StandingsOptions(tiebreaks=("wins",)))
    assert decision.playoff_required
    assert {p.name_ru for p in decision.candidates} == {"Аня", "Вера"}


def test_swiss_crosstable_by_rounds(small_swiss):
    players, matches = small_swiss
    table = build_round_crosstable(players, matches, StandingsOptions(system=System.SWISS))
    assert [r.player.name_ru for r in table.rows] == ["C", "A", "E", "D", "B"]
    e = table.rows[2]
    assert [c.text("en") for c in e.cells] == ["bye", "5 W 5:2", "1 L 3:5"]
    assert [c.text("ru") for c in e.cells] == ["своб.", "5 В 5:2", "1 П 3:5"]
    assert [c.running for c in e.cells] == [1, 2, 2]
    assert e.total == 2


def test_unknown_and_repeated_tiebreaks_are_refused_in_both_languages():
    players = _players("AB")
    with pytest.raises(RuleViolation) as err:
        compute_standings(players, [], StandingsOptions(tiebreaks=("wins", "bukholz", "wins")))
    codes = [p.code for p in err.value.problems]
    assert codes == ["standings.unknown_metric", "standings.repeated_metric"]
    assert "bukholz" in err.value.problems[0].ru and "buchholz" in err.value.problems[0].en


def test_check_matches_finds_impossible_pairings():
    players = _players("AB")
    bad = [Match(1, 1, 9, 5, 0, winner=1), Match(0, 2, 2), Match(2, 1, 2, 5, 3, winner=7)]
    codes = [p.code for p in check_matches(players, bad)]
    assert codes == [
        "standings.unknown_player",
        "standings.bad_round",
        "standings.plays_self",
        "standings.bad_winner",
    ]
