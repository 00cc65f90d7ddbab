"""TRF-16: fixed columns, lossless round trip, clear errors naming the line."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from tournaments.pairing.simulate import simulate
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.swiss_input import SwissOptions
from tournaments.pairing.trf import dump_trf, from_results, parse_trf, to_pairing_input

SAMPLE = """012 Kubok kluba
042 2026/03/01
XXR 5
001    1 m    Ivanov, Ivan                      1850 RUS    24100000 1980/01/01  1.0    2  0003 w 1  0000 - U
001    2 f FM Petrova, Anna                     2010 RUS                         2.0    1  0000 - U  0003 b 1
001    3 m    Sidorov                           1700                             0.0    3  0001 b 0  0002 w 0
"""


def test_reads_the_fixed_columns_of_a_player_line():
    t = parse_trf(SAMPLE)
    assert t.name == "Kubok kluba" and t.start_date == "2026/03/01" and t.rounds == 5
    ivanov, petrova, sidorov = t.players
    assert (ivanov.start_number, ivanov.name, ivanov.rating) == (1, "Ivanov, Ivan", 1850)
    assert (ivanov.sex, ivanov.federation, ivanov.fide_id) == ("m", "RUS", "24100000")
    assert (petrova.title, petrova.points, petrova.rank) == ("FM", 2.0, 1)
    assert [(g.round, g.opponent, g.colour, g.result) for g in sidorov.games] == [
        (1, 1, "b", "0"),
        (2, 2, "w", "0"),
    ]
    assert ivanov.games[1].opponent is None and ivanov.games[1].result == "U"


def test_the_next_round_is_derived_from_the_file():
    inp = to_pairing_input(parse_trf(SAMPLE))
    assert inp.round_number == 3
    by_id = {p.id: p for p in inp.players}
    assert by_id[1].opponents == (3,) and by_id[1].bye_rounds == (2,)
    assert by_id[2].match_points == 2.0 and by_id[3].match_points == 0.0
    assert by_id[1].colours == ("w", None)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=30),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10_000),
    colours=st.booleans(),
)
def test_simulated_tournament_round_trips_losslessly(n, rounds, seed, colours):
    opts = SwissOptions(alternate_colours=colours, bye_points=1.0)
    t = simulate(n, rounds, seed=seed, options=opts)
    trf = from_results(t.entrants, t.results, name="Sim", rounds=rounds + 2, bye_points=1.0)
    text = dump_trf(trf)
    assert parse_trf(text) == trf
    assert dump_trf(parse_trf(text)) == text
    # Everything the pairing looks at survives the trip (TRF-16 has no game points).
    imported = to_pairing_input(parse_trf(text), opts)
    original = t.next_input()
    strip = [dataclasses.replace(p, game_points=0.0) for p in original.players]
    assert imported.round_number == original.round_number
    assert list(imported.players) == strip
    assert pair_swiss(imported).pairings == pair_swiss(original).pairings


def test_requested_bye_entered_for_the_next_round_is_respected():
    lines = SAMPLE.splitlines()
    lines[3] = lines[3] + "  0000 - H"
    inp = to_pairing_input(parse_trf("\n".join(lines)))
    assert {p.id: p.status for p in inp.players}[1] == "half_bye"


@pytest.mark.parametrize(
    "mutate,line,fragment",
    [
        (lambda ls: ls.__setitem__(3, ls[3].replace("1850", "18x0")), 4, "rating"),
        (lambda ls: ls.__setitem__(4, ls[4].replace("0003 b 1", "0003 b 7")), 5, "result"),
        (lambda ls: ls.__setitem__(5, ls[5][:40]), 6, "84"),
        (lambda ls: ls.__setitem__(5, ls[5].replace("0001 b 0", "0002 b 0")), 4, "does not say"),
        (lambda ls: ls.append(ls[3]), 7, "already used"),
        (lambda ls: ls.append("##weird"), 7, "unknown line code"),
    ],
)
def test_malformed_files_name_the_line_in_both_languages(mutate, line, fragment):
    lines = SAMPLE.splitlines()
    mutate(lines)
    with pytest.raises(RuleViolation) as err:
        parse_trf("\n".join(lines))
    problem = err.value.problems[0]
    assert problem.details["line"] == line
    assert f"line {line}" in problem.en and f"строка {line}" in problem.ru
    assert fragment in problem.en


@pytest.mark.parametrize("text", ["", "\n\n   \n", "012 Kubok kluba\n042 2026/03/01\nXXR 5\n"])
def test_a_file_without_player_lines_is_an_error_that_says_so(text):
    with pytest.raises(RuleViolation) as err:
        parse_trf(text)
    problem = err.value.problems[0]
    assert problem.code == "pairing.trf.no_players"
    assert "no player lines" in problem.en and "нет строк игроков" in problem.ru
