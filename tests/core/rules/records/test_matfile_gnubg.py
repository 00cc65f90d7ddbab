"""Jellyfish .mat files written by GNU Backgammon: import, replay, checks, export round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.rules.records.matfile import (
    crawford_game,
    export_mat,
    looks_like_mat,
    match_from_reports,
    parse_mat,
    validate_mat_text,
    validate_match,
)
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay
from tests.paths import DATA

RECORDS = DATA / "records"
MAT_FILES = sorted(RECORDS.glob("gnubg_*.mat"))


def _read(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def test_there_are_real_gnubg_files() -> None:
    assert len(MAT_FILES) >= 3


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: p.name)
def test_gnubg_self_play_replays_cleanly_and_results_agree(path: Path) -> None:
    match = parse_mat(path.read_text(encoding="utf-8"))
    assert match.length >= 0 and match.games  # 0: a money session
    report = validate_match(match)
    assert report.errors == []
    for game, game_report in zip(match.games, report.games, strict=True):
        result = game_report.result
        assert result is not None and result.winner == game.winner
        if any(n.code == "record.jacoby_single" for n in game_report.notes):
            # gnubg prints the gammon's "Wins 2 points" but counts the single game (test_jacoby_mat).
            assert (result.points, game.points) == (result.cube, 2 * result.cube)
        else:
            assert result.points == game.points


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: p.name)
def test_import_export_import_is_equal(path: Path) -> None:
    match = parse_mat(path.read_text(encoding="utf-8"))
    again = parse_mat(export_mat(match))
    assert again.key() == match.key()
    assert export_mat(again) == export_mat(match)


def test_structure_of_a_known_game() -> None:
    match = parse_mat(_read("gnubg_match3_seed7.mat"))
    assert match.length == 3 and len(match.games) == 2
    first = match.games[0]
    assert first.score == (0, 0)
    # Black (right column) opened with 21; the dance "66:" is a play with no chains.
    assert (first.actions[0].side, first.actions[0].dice) == ("black", (2, 1))
    dance = next(a for a in first.actions if a.kind == "play" and not a.chains)
    assert dance.dice == (6, 6)
    assert [a.kind for a in first.actions[-2:]] == ["double", "drop"]
    assert (first.winner, first.points) == ("white", 1)
    assert match.games[1].score == (1, 0)


def test_crawford_game_is_worked_out_from_the_scores() -> None:
    match = parse_mat(_read("gnubg_match7_seed5.mat"))
    assert [g.score for g in match.games][:3] == [(0, 0), (0, 2), (0, 6)]
    assert crawford_game(match) == 3


def test_wrong_dice_are_reported() -> None:
    text = _read("gnubg_match3_seed7.mat").replace("52: 13/8 24/22", "72: 13/8 24/22", 1)
    report = validate_mat_text(text)
    codes = [(p.game, p.move, p.side, p.code) for p in report.errors]
    assert codes[0] == (1, 2, "white", "record.bad_dice")


def test_a_move_that_does_not_fit_the_roll_is_reported() -> None:
    text = _read("gnubg_match3_seed7.mat").replace("52: 13/8 24/22", "53: 13/8 24/22", 1)
    report = validate_mat_text(text)
    assert [(p.game, p.move, p.side, p.code) for p in report.errors][0] == (
        1,
        2,
        "white",
        "record.wrong_distance",
    )


def test_cube_in_the_crawford_game_is_reported() -> None:
    text = _read("gnubg_match7_seed5.mat")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Game 3")
    row = start + 2  # "  1) …" — put a double before White's second roll
    lines.insert(row + 1, "  2)  Doubles => 2                Takes")
    report = validate_mat_text("\n".join(lines))
    crawford = [p for p in report.errors if p.code == "match.cube_in_crawford"]
    assert crawford and crawford[0].game == 3


def test_score_line_that_does_not_add_up_is_reported() -> None:
    text = _read("gnubg_match3_seed7.mat").replace(" gnubg : 1 ", " gnubg : 2 ", 1)
    report = validate_mat_text(text)
    assert [(p.game, p.code) for p in report.errors] == [(2, "record.score_mismatch")]
    assert "1:0" in report.errors[0].en and "2:0" in report.errors[0].ru


def test_wins_line_that_disagrees_with_the_replay_is_reported() -> None:
    # Game 2 ends by a resignation on a 4-cube: 10 is no value of the game there.
    text = _read("gnubg_match3_seed7.mat").replace("Wins 4 points", "Wins 10 points", 1)
    report = validate_mat_text(text)
    assert (2, "record.result_mismatch") in [(p.game, p.code) for p in report.errors]
    assert not any(word in report.errors[0].ru for word in ("white", "black"))
    # 8 (a gammon resigned on the 4-cube) is more than the position risks: accepted, noted.
    noted = validate_mat_text(_read("gnubg_match3_seed7.mat").replace("Wins 4 points", "Wins 8 points", 1))
    assert [n.code for g in noted.games for n in g.notes] == ["record.resigned_above_risk"]


def test_result_mismatch_names_the_kind_of_win_in_russian() -> None:
    text = _read("gnubg_match5_seed23.mat").replace("Wins 4 point", "Wins 5 point", 1)
    errors = [p for p in validate_mat_text(text).errors if p.code == "record.result_mismatch"]
    assert errors and "(гэммон, куб 2)" in errors[0].ru and "gammon" not in errors[0].ru
    assert "gammon, cube 2" in errors[0].en


def test_unreadable_lines_are_reported_with_the_line() -> None:
    text = _read("gnubg_match1_seed11.mat").replace("  3) 31: 11/8 6/5", "  3) 31: 11/8 6/5 zz", 1)
    report = validate_mat_text(text)
    assert report.errors[0].code == "record.unparsable" and "zz" in report.errors[0].en


def test_content_detection() -> None:
    assert looks_like_mat(_read("gnubg_match3_seed7.mat"))
    assert not looks_like_mat(_read("book_game1_backgammon.txt"))


def test_book_game_exports_to_mat_in_own_numbering_and_replays_the_same() -> None:
    record = parse_record(_read("book_game1_backgammon.txt"))
    report = replay(record)
    match = match_from_reports([(record, report)], length=0)
    text = export_mat(match)
    assert "13/7 13/11" in text  # White's first move: through numbering is White's own
    assert "13/9 9/8" in text  # Black's 12/16/17 becomes 13/9/8 in Black's own numbering
    again = validate_match(parse_mat(text))
    # .mat has no way to say "automatic doubles": a comment line says it (GNU Backgammon
    # skips it, our reader takes it), the double to 8 stays true, and it all reads back.
    assert '; [Automatic doubles "Game 1: 2 (cube 4 before the first roll' in text
    assert again.errors == []
    assert again.games[0].result == report.result


def test_each_error_of_a_broken_mat_file_says_its_game_once() -> None:
    """The place ("Game 2: ") comes from the problem itself; no layer adds it again."""
    text = _read("gnubg_match3_seed7.mat").replace(" gnubg : 1 ", " gnubg : 2 ", 1)
    report = validate_mat_text(text)
    for language, word in (("en", "Game"), ("ru", "Партия")):
        messages = [e["message"] for e in report.as_dict(language)["errors"]]
        assert messages and all(m.startswith(f"{word} 2: ") for m in messages), messages
        assert all(m.count(f"{word} 2") == 1 for m in messages), messages


def test_a_raccoon_is_written_and_read_as_gnubg_does_a_second_beaver() -> None:
    """gnubg has no word for a raccoon: it writes one more "Beavers => N" (issue 46; a
    real gnubg 1.07 money session with beavers on); the book calls it a raccoon (ch10)."""
    head = "Партия №9. Бэкгэммон.\n\n№ хода\tБелые:\tЧёрные:\n"
    text = head + "1.\t6–2 13/7, 13/11\t4–1 12/16/17\n\tD2x\tB4x\n\tR8x\t\n2.\t6–1 13/7, 11/10\t4–2 17/21, 19/21\n"
    record = parse_record(text)
    report = replay(record)
    assert report.errors == []
    exported = export_mat(match_from_reports([(record, report)]))
    assert "Beavers => 4" in exported and "Beavers => 8" in exported and "Raccoon" not in exported
    again = parse_mat(exported)
    assert [a.kind for a in again.games[0].actions if a.kind != "play"][:3] == ["double", "beaver", "raccoon"]
    assert export_mat(again) == exported
    gnubg = parse_mat(_read("gnubg_money_beavers.mat"))
    first = [a.kind for a in gnubg.games[0].actions if a.kind != "play"]
    assert first[-4:] == ["double", "beaver", "raccoon", "drop"]
    assert validate_match(gnubg).errors == []


def test_gnubgs_pass_row_with_the_games_end_is_read() -> None:
    """gnubg writes a dropped double and the game's end on one row (issue 46):
    `` 14)  Drops                       Wins 1 point`` — read, not ``record.unparsable``."""
    text = _read("gnubg_match5_pass_rows.mat")
    assert " 14)  Drops                       Wins 1 point" in text
    match = parse_mat(text)
    assert match.problems == []
    first = match.games[0]
    assert (first.winner, first.points) == ("black", 1)
    assert [a.kind for a in first.actions[-2:]] == ["double", "drop"]
    report = validate_match(match)
    assert report.errors == [] and report.final_score() == (2, 10)


def test_a_pass_rows_wins_that_disagrees_with_the_drop_is_reported() -> None:
    text = _read("gnubg_match5_pass_rows.mat").replace(
        " 14)  Drops                       Wins 1 point", " 14)  Drops                       Wins 2 points", 1
    )
    codes = [p.code for p in validate_mat_text(text).errors]
    assert codes == ["record.result_mismatch"]


def test_a_money_session_reads_as_a_match_of_no_length() -> None:
    report = validate_mat_text(_read("gnubg_money_session.mat"))
    assert report.errors == [] and report.match.length == 0 and report.winner() is None
    assert report.final_score() == (1, 4)


def test_an_accepted_resignation_above_the_risk_stands_with_a_note() -> None:
    """gnubg lets a player resign a backgammon that cannot happen any more and the opponent
    accept it: 6 points on a 2-cube (issue 46). The points stand; a note says so."""
    match = parse_mat(_read("gnubg_money_resigned_backgammon.mat"))
    report = validate_match(match)
    assert report.errors == []
    second = report.games[1]
    assert (second.result.winner, second.result.points) == ("white", 6)
    assert [n.code for n in second.notes] == ["record.resigned_above_risk"]
    assert "at most 4" in second.notes[0].message("en") and "не больше 4" in second.notes[0].message("ru")
    # Not a value of the game on this cube (5 on a 2-cube) is still an error.
    broken = _read("gnubg_money_resigned_backgammon.mat").replace("Wins 6 points", "Wins 5 points", 1)
    assert "record.result_mismatch" in [p.code for p in validate_mat_text(broken).errors]
