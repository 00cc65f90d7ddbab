"""The Jacoby rule in a money session's ``.mat`` (issue 46): read and scored as gnubg scores it.

``gnubg_money_jacoby.mat`` is GNU Backgammon 1.07's own export of a money session it played
with ``set jacoby on`` (``gnubg_random_play.py``, seed 14, six games, no doubles). Game 1 ends
in a gammon with the cube in the middle: gnubg's file prints ``Wins 2 points`` but its next
score line (and gnubg's own record, ``points-won``) counts it 1. gnubg writes no header for
the rule; eXtreme Gammon writes ``; [Jacoby "On"]``.
"""

from __future__ import annotations

from dataclasses import replace

from scoring.rules.records.matfile import (
    MatAction,
    export_mat,
    parse_mat,
    validate_mat_text,
    validate_match,
)
from scoring.viewer.frames import view_text
from tests.paths import DATA

FILE = (DATA / "records" / "gnubg_money_jacoby.mat").read_text(encoding="utf-8")
#: gnubg's own ``points-won`` for each game of that session, and its final score.
GNUBG_POINTS = [1, 2, 1, 3, 1, 1]
GNUBG_FINAL = (2, 7)


def with_header(text: str, header: str) -> str:
    return f"{header}\n{text}"


def notes(report) -> list[tuple[int | None, str]]:
    return [(n.game, n.code) for game in report.games for n in game.notes if "jacoby" in n.code]


def test_gnubgs_jacoby_session_reads_with_gnubgs_score_and_says_why():
    report = validate_mat_text(FILE)
    assert [p.message("en") for p in report.errors] == []
    assert [g.result.points for g in report.games] == GNUBG_POINTS
    assert report.final_score() == GNUBG_FINAL
    assert notes(report) == [(1, "record.jacoby_single"), (1, "record.jacoby_from_scores")]
    game1 = report.games[0].notes
    assert "Jacoby rule" in game1[0].message("en") and "1 point(s)" in game1[0].message("en")
    assert "по правилу Якоби" in game1[0].message("ru")
    assert "GNU Backgammon" in game1[1].message("en") and "гэммон" in game1[1].message("ru")


def test_the_viewer_and_the_cli_reader_agree_on_the_jacoby_session():
    view = view_text(FILE)
    assert view.problems == []
    assert [g.points for g in view.games] == GNUBG_POINTS
    assert view.final_score == GNUBG_FINAL
    assert any(n.code == "record.jacoby_single" for n in view.notes)


def test_an_xg_header_says_the_rule_and_no_inference_is_needed():
    report = validate_mat_text(with_header(FILE, '; [Jacoby "On"]'))
    assert report.errors == [] and report.final_score() == GNUBG_FINAL
    assert notes(report) == [(1, "record.jacoby_single")]


def test_a_header_saying_the_rule_was_off_keeps_the_gammon_and_the_score_line_is_wrong():
    report = validate_mat_text(with_header(FILE, '; [Jacoby "Off"]'))
    assert report.games[0].result.points == 2 and notes(report) == []
    assert [(p.code, p.game) for p in report.errors][0] == ("record.score_mismatch", 2)


def test_a_match_is_never_played_under_the_jacoby_rule_whatever_its_header_says():
    text = with_header(FILE, '; [Jacoby "On"]').replace(" 0 point match", " 9 point match")
    report = validate_match(parse_mat(text))
    assert report.games[0].result.points == 2 and notes(report) == []
    assert "record.score_mismatch" in [p.code for p in report.errors]


def test_a_gammon_after_a_double_counts_in_full_under_the_jacoby_rule():
    """The rule spares gammons only while the cube is in the middle: here game 1 (alone, a
    one-game session) has Black double before his second roll and White take."""
    match = parse_mat(with_header(FILE, '; [Jacoby "On"]'))
    game = match.games[0]
    match.games = [game]
    actions = list(game.actions)
    assert [a.side for a in actions[:3]] == ["black", "white", "black"]  # strictly alternating
    actions[2:2] = [MatAction(0, "black", "double", "Doubles => 2", value=2), MatAction(0, "white", "take", "Takes")]
    # gnubg's rows when Black rolls first: Black alone on row 1, then White and Black.
    game.actions = [replace(a, move=(i + 1) // 2 + 1) for i, a in enumerate(actions)]
    game.points = 4
    report = validate_mat_text(export_mat(match))
    assert report.errors == [], [p.message("en") for p in report.errors]
    assert (report.games[0].result.kind, report.games[0].result.points) == ("gammon", 4)
    assert notes(report) == []
