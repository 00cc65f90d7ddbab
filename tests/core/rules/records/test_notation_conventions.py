"""Every convention of the book's notation (ch7, Part 6) read with one meaning (issue 16 item 1).

The survey itself is the table in ``scoring/rules/records/NOTATION.md``; each row has a case here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import Position, legal_plays
from scoring.rules.records.notation import Chain, parse_ply
from scoring.rules.records.play_notation import format_play, parse_play
from scoring.rules.records.reader import parse_record
from scoring.rules.records.validate import validate_text

SHORT = ("backgammon", "short_nardy", "caucasian", "nackgammon")

HEAD = "Партия №9. Бэкгэммон.\n\n№ хода\tБелые:\tЧёрные:\n"


@pytest.mark.parametrize(
    ("text", "chains", "mark"),
    [
        # ch7: the repeat count "(2)"; Part 6 also prints the hit mark after it.
        ("3–3 13/10*(2)", (Chain(("13", "10"), (False, True), 2),), None),
        ("3–3 13/10(2)*", (Chain(("13", "10"), (False, True), 2),), None),
        # ch7: quality marks, glued or spaced, and in brackets as Part 6 prints them.
        ("6–5 24/13!", (Chain(("24", "13"), (False, False), 1, "!"),), None),
        ("6–5 24/13 (?)", (Chain(("24", "13"), (False, False), 1, "?"),), None),
        ("6–5 24/13 (?!)", (Chain(("24", "13"), (False, False), 1, "?!"),), None),
        ("6–5 24/13 =", (Chain(("24", "13"), (False, False)),), "="),
        # A comma is the book's separator; a space alone (GNU Backgammon) means the same.
        ("6–5 13/7 13/8", (Chain(("13", "7"), (False, False)), Chain(("13", "8"), (False, False))), None),
    ],
)
def test_each_cell_convention_has_one_reading(text: str, chains: tuple, mark: str | None) -> None:
    ply = parse_ply(text)
    assert ply.chains == chains and ply.mark == mark


def test_bracketed_alternatives_and_remarks_are_kept_as_annotations() -> None:
    ply = parse_ply("6–5 13/7, 13/8 (или 24/13) (форсированно)")
    assert ply.alternatives == ("24/13",) and ply.remarks == ("форсированно",)
    assert len(ply.chains) == 2
    for word in ("or", "лучше", "better"):
        assert parse_ply(f"6–5 13/7, 13/8 ({word} 24/13)").alternatives == ("24/13",)


def test_a_word_in_brackets_inside_a_move_is_a_remark() -> None:
    # ch9: "5–5 012(голова)/07/02/9/4" names the head in passing.
    ply = parse_ply("5–5 012(голова)/07/02/9/4")
    assert ply.chains == (Chain(("012", "07", "02", "9", "4"), (False,) * 5),)
    assert ply.remarks == ("голова",)


def test_an_alternative_is_not_played_but_an_illegal_one_is_a_note() -> None:
    fine = HEAD + "1.\t6–5 13/7, 13/8 (или 24/13)\t4–2 12/16, 12/14 или 1/5, 12/14\n"
    report = validate_text(fine)
    assert report.ok and report.errors == [] and report.notes == []
    # The move stands; "24/14" is not a 6–5 play, so a note says so, at its move and side.
    wrong = HEAD + "1.\t6–5 13/7, 13/8 (или 24/14)\t4–2 12/16, 12/14\n"
    report = validate_text(wrong)
    assert report.ok and report.errors == []
    [note] = report.notes
    assert (note.move, note.side, note.code) == (1, "white", "record.alternative_illegal")
    assert "24/14" in note.en and "Note" in note.en and "Замечание" in note.ru
    assert "6-5" in note.en  # the reason the rules core gives
    event = parse_record(wrong).plays[0]
    assert event.alternatives == ("24/14",)
    assert report.as_dict()["notes"][0]["code"] == "record.alternative_illegal"


def test_moves_of_one_checker_printed_in_the_other_order_are_the_same_play() -> None:
    start = Position.start("backgammon")
    printed = parse_play(start, "6–1 7/6, 13/7", numbering="through")  # 13/7 must come first
    assert printed.position == parse_play(start, "6–1 13/7/6", numbering="through").position


def test_the_book_games_misprints_are_still_located_with_annotations_added() -> None:
    text = HEAD + "1.\t6–5 13/7, 13/8 (!)\t4–2 12/16 (?), 12/15\n"
    assert [(p.move, p.side, p.code) for p in validate_text(text).errors] == [
        (1, "black", "record.wrong_distance")
    ]


def test_a_step_through_two_blots_is_an_ambiguous_cell_at_its_move_and_side() -> None:
    # Black leaves blots on 9 and 10; White's "4–3 13/6" passes one of them, and the cell
    # does not say which (either hits a different checker).
    text = (
        HEAD
        + "1.\t2–1 24/23, 24/22\t6–2 1/7/9\n"
        + "2.\t2–1 13/11, 6/5\t6–3 1/7/10\n"
        + "3.\t4–3 13/6\t\n"
    )
    [problem] = validate_text(text).errors
    assert (problem.move, problem.side, problem.code) == (3, "white", "record.ambiguous_step")
    assert "13/9*/6 or 13/10*/6" in problem.en and "13/9*/6 или 13/10*/6" in problem.ru
    assert validate_text(text.replace("4–3 13/6", "4–3 13/9*/6")).errors == []


@pytest.mark.parametrize(
    "text",
    [
        # ch9: the first moves of long nardy, both sides on one chess-style row.
        "Партия. Длинные нарды.\n1. 3–3 012/09/06/03, 012/09 3–3 12/9/6/3, 12/9.\n",
        "Партия. Длинные нарды.\n1. 1–1 012/011/010/09/08 1–1 12/11/10/9/8.\n",
        "Партия. Длинные нарды.\n1. 4–4 012/08/04(2) 4–4 12/8/4(2)\n",
        "Партия. Длинные нарды.\n1. 5–5 012(голова)/07/02/9/4\n",
    ],
)
def test_the_move_rows_printed_in_the_chapters_read_cleanly(text: str) -> None:
    assert validate_text(text).errors == []


def test_the_chapters_misprints_are_reported_where_they_are() -> None:
    # ch7's trictrac rows print Black's 3–3 as "012/10/7(2)": Black's checkers stand on 12,
    # so it is "12/010/07(2)" written from the wrong side; with it the rows read cleanly.
    ch7 = "Партия. Триктрак.\n1. 6–5 01/07/012 3–3 012/10/7(2);\n2. 3–1 8/5, 6/5 5–3 08/03, 06/03.\n"
    assert [(p.move, p.side, p.code) for p in validate_text(ch7).errors][0] == (1, "black", "record.no_checker")
    assert validate_text(ch7.replace("012/10/7(2)", "12/010/07(2)")).errors == []
    # ch9's running text prints Black's first 3–3 once as "12/09/6/3" (two lines later as
    # 12/9/6/3): the checker ends on the same point, but no die reaches 09.
    ch9 = "Партия. Длинные нарды.\n1. 3–3 012/09/06/03, 012/09 3–3 12/09/6/3, 12/9.\n"
    [problem] = validate_text(ch9).errors
    assert (problem.move, problem.side, problem.code) == (1, "black", "record.wrong_distance")
    assert "12/09" in problem.en


# --------------------------------------------------------------------------- properties

REMARKS = ["", " (?)", " (!)", "!", " ?!", " (или 13/7, 13/11)", " (форсированно)", " (or 24/13) (!)"]
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def _walk(variant: str, rolls: list[tuple[int, int]], picks: list[int]):
    position = Position.start(variant)
    for roll, pick in zip(rolls, picks, strict=False):
        plays = legal_plays(position, roll)
        yield position, roll
        position = plays[pick % len(plays)].position


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from((*SHORT, "long_nardy")),
    rolls=st.lists(dice, min_size=1, max_size=25),
    picks=st.lists(st.integers(0, 10_000), min_size=25, max_size=25),
    numbering=st.sampled_from(("traditional", "through")),
    remark=st.sampled_from(REMARKS),
    reverse=st.booleans(),
)
def test_any_legal_play_printed_with_any_remark_reads_back(
    variant, rolls, picks, numbering, remark, reverse
) -> None:
    """Any legal play, in either numbering, with its roll in either order, its moves in
    reverse order and any remark or alternative attached, reads back as the same play."""
    if variant == "long_nardy" and numbering == "through":
        numbering = "traditional"  # the book numbers long nardy traditionally only
    for position, roll in _walk(variant, rolls, picks):
        for play in legal_plays(position, roll):
            moves = format_play(position, play, numbering=numbering)
            if reverse and moves != "Ø":
                moves = ", ".join(reversed(moves.split(", ")))
            first, second = (roll[1], roll[0]) if reverse else roll
            text = f"{first}–{second} {moves}{remark}"
            again = parse_play(position, text, numbering=numbering)
            assert again.position == play.position, (text, roll)
