"""Whole game records as printed in the book: reading, replay, located problems, results."""

from __future__ import annotations

import pytest

from scoring.rules.records.events import CheckpointEvent, CubeEvent
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay
from scoring.rules.records.validate import validate_text
from tests.paths import DATA

RECORDS = DATA / "records"
HEAD = "Партия №9. Бэкгэммон.\n\n№ хода\tБелые:\tЧёрные:\n"
LONG = "Партия №9. Длинные нарды.\n\n№ хода\tБелые:\tЧёрные:\n"


def _book(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def _codes(text: str, **kw: str) -> list[tuple[int | None, str | None, str]]:
    return [(p.move, p.side, p.code) for p in validate_text(text, **kw).errors]


# --------------------------------------------------------------------------- book game 1


def test_book_game_1_is_read_as_a_through_numbered_backgammon_record() -> None:
    record = parse_record(_book("book_game1_backgammon.txt"))
    assert (record.variant, record.numbering, record.first) == ("backgammon", "through", "white")
    assert record.opening == [(3, 3), (4, 4), (6, 2)] and record.autodoubles == 2
    plays = record.plays
    assert len(plays) == 32
    assert (plays[0].move, plays[0].side, plays[0].text) == (1, "white", "6–2 13/7, 13/11")
    assert (plays[-1].move, plays[-1].side) == (16, "black")
    # Black's move 4 comes after a commentary line, as a "..." continuation.
    assert (plays[7].move, plays[7].side, plays[7].text) == (4, "black", "2–2 1/3/5(2)")
    cube = [e for e in record.events if isinstance(e, CubeEvent)]
    assert [a.kind for e in cube for a in e.actions] == [
        "offer", "take", "offer", "take", "beaver", "offer", "drop",
    ]  # fmt: skip
    assert sum(isinstance(e, CheckpointEvent) for e in record.events) == 2


def test_book_game_1_replays_cleanly_and_white_wins_32_on_the_dropped_redouble() -> None:
    report = validate_text(_book("book_game1_backgammon.txt"))
    assert report.errors == []
    assert report.ok
    assert [(c.move, c.side, c.ok) for c in report.checkpoints] == [
        (11, "black", True),
        (16, "black", True),
    ]
    assert report.result is not None
    assert report.result.as_dict() == {
        "winner": "white",
        "kind": "single",
        "cube": 32,
        "points": 32,
    }
    assert report.result.by_drop


def test_book_game_1_without_the_beaver_mark_gives_a_different_cube() -> None:
    text = _book("book_game1_backgammon.txt").replace("\tD16. B32\t", "\tD16\t")
    report = validate_text(text)
    # Without the beaver Black owns the cube at 16, so White's "D64X" is out of order.
    assert ("record.cube_wrong_value" in {p.code for p in report.errors}) or (
        "match.cube_not_owner" in {p.code for p in report.errors}
    )
    assert not report.ok


# --------------------------------------------------------------------------- book game 4

# Worked out by hand from the printed moves and the book's own checkpoints:
#  3 black  6–1 "5/11": Black never moves towards 11; the move-10 checkpoint has 011 (5/011).
# 12 white  6–3 "012/06/04": 06/04 is 2 pips; the move-12 checkpoint confirms 04, so the roll
#           is misprinted (6–2).
# 30 white  6–5 "4/off(2)": after move 29 White has 3(2), 2(1), 1(8) — nothing on 4.
# 31 white  5–3 "3/off, 4/off": the 6–5 had to bear off both checkers from 3.
# 31 black  6–1 "06/off": Black's highest point is 05 (all of 06 left at move 29).
# 32 white  4–2 "2/off, 3/off": only 1-point checkers are left.
# 34 white  4–4 "1/off(4)": the printed bear-off passes 15 checkers (20 printed in all), so
#           White is finished after three of them; Black's 34 and White's 35 come after the end.
# The move-35 checkpoint (White 1(2)) then disagrees with the board; from it the record
# finishes cleanly: 36. 2–1 1/off(2), White wins an oyun (Black has borne off 14).
GAME4_EXPECTED = [
    (3, "black", "record.wrong_distance"),
    (12, "white", "record.wrong_distance"),
    (30, "white", "record.no_checker"),
    (31, "white", "record.no_checker"),
    (31, "black", "record.no_checker"),
    (32, "white", "record.no_checker"),
    (34, "white", "record.too_many_borne_off"),
    (34, "black", "record.moves_after_game_end"),
    (35, "white", "record.moves_after_game_end"),
    (35, "white", "record.checkpoint_mismatch"),
]


def test_book_game_4_is_read_as_traditional_long_nardy() -> None:
    record = parse_record(_book("book_game4_long_nardy.txt"))
    assert (record.variant, record.numbering, record.first) == (
        "long_nardy",
        "traditional",
        "white",
    )
    assert len(record.plays) == 71
    checkpoints = [e for e in record.events if isinstance(e, CheckpointEvent)]
    assert len(checkpoints) == 4
    # The first checkpoint is broken over a page; both halves are joined.
    assert dict(checkpoints[0].white)["012"] == 7
    assert dict(checkpoints[0].black)["12"] == 6


def test_book_game_4_misprints_are_reported_where_they_are() -> None:
    report = validate_text(_book("book_game4_long_nardy.txt"))
    assert [(p.move, p.side, p.code) for p in report.errors] == GAME4_EXPECTED
    assert not report.ok
    first = report.errors[0]
    assert first.text == "6–1 5/11, 12/11"
    assert "5/011" in first.en and "5/011" in first.ru  # the play the replay inferred
    assert [(c.move, c.side, c.ok) for c in report.checkpoints] == [
        (10, "black", True),
        (12, "black", True),
        (23, "black", True),
        (35, "white", False),
    ]
    assert report.checkpoints[-1].diff["white"]["1"] == {"expected": 2, "actual": 0}
    assert report.result is not None
    assert report.result.as_dict() == {"winner": "white", "kind": "oyun", "cube": 1, "points": 1}


def test_game_4_without_inference_at_move_3_would_cascade() -> None:
    # The corrected move makes the first stretch clean: the rest is unchanged.
    fixed = _book("book_game4_long_nardy.txt").replace("6–1 5/11, 12/11", "6–1 5/011, 12/11")
    codes = _codes(fixed)
    assert codes == GAME4_EXPECTED[1:]


def test_variant_and_numbering_can_be_overridden() -> None:
    record = parse_record(_book("book_game1_backgammon.txt"), variant="short_nardy")
    assert record.variant == "short_nardy" and not record.variant_detected
    report = validate_text(_book("book_game1_backgammon.txt"), numbering="traditional")
    assert report.numbering == "traditional"
    assert any(p.code == "record.bad_point" for p in report.errors)


# --------------------------------------------------------------------------- every code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HEAD + "1.\t6–5 13/7 Brr/4\t4–2 12/16, 12/14\n", [(1, "white", "record.unparsable")]),
        (HEAD + "1.\t6–5 13/30\t4–2 12/16, 12/14\n", [(1, "white", "record.bad_point")]),
        (HEAD + "1.\t7–2 13/6, 13/11\t4–2 12/16, 12/14\n", [(1, "white", "record.bad_dice")]),
        (HEAD + "1.\t13/7, 13/8\t4–2 12/16, 12/14\n", [(1, "white", "record.missing_dice")]),
        (
            "Бэкгэммон.\nБелые: 6. Чёрные: 2.\n№ хода\tБелые:\tЧёрные:\n1.\t6–1 13/7, 8/7\t\n",
            [(1, "white", "record.opening_roll_mismatch")],
        ),
        (HEAD + "1.\t6–5 24/13\t\n2.\t6–1 13/7, 8/7\t\n", [(2, "white", "record.out_of_turn")]),
        (
            HEAD + "1.\t6–5 24/13\t4–2 12/16, 12/14\n3.\t6–1 13/7, 8/7\t\n",
            [(3, "white", "record.move_number_mismatch")],
        ),
        (
            HEAD + "1.\t6–5 24/13\t4–2 12/16, 12/14\n\tD2X\t– (Pass!)\n2.\t6–1 13/7, 8/7\t\n",
            [(2, "white", "record.moves_after_game_end")],
        ),
        (HEAD + "\tD4X\t\n1.\t6–5 24/13\t4–2 12/16, 12/14\n", [(1, "white", "record.cube_wrong_value")]),
        (HEAD + "\t\tD2X\n1.\t6–5 24/13\t4–2 12/16, 12/14\n", [(1, "black", "record.double_out_of_turn")]),
        (
            HEAD + "\tD2X\tD2\n1.\t6–5 24/13\t4–2 12/16, 12/14\n\tD4X\t\n",
            [(2, "white", "match.cube_not_owner")],
        ),
        (HEAD + "1.\t6–5 Ø\t\n", [(1, "white", "record.pass_while_move_exists")]),
        (HEAD + "1.\t— ∅\t\n", [(1, "white", "record.pass_while_move_exists")]),
        # Rule problems come from the rules core, located by the record.
        (HEAD + "1.\t6–5 24/14\t\n", [(1, "white", "record.wrong_distance")]),
        (HEAD + "1.\t6–5 24/18, 24/19\t\n", [(1, "white", "record.point_closed")]),
        (HEAD + "1.\t6–4 24/18, 13/9*\t\n", [(1, "white", "record.nothing_to_hit")]),
        (HEAD + "1.\t6–5 23/12\t\n", [(1, "white", "record.no_checker")]),
        (LONG + "1.\t6–5 012/06, 012/07\t\n", [(1, "white", "record.head_rule")]),
        (
            LONG + "1.\t6–5 012/06/01\t6–5 12/6/1\n2.\t6–1 01/7*, 012/011\t\n",
            [(2, "white", "record.hit_forbidden")],
        ),
    ],
)
def test_each_problem_code_is_reported_with_move_and_side(
    text: str, expected: list[tuple[int, str, str]]
) -> None:
    report = validate_text(text)
    assert [(p.move, p.side, p.code) for p in report.errors] == expected
    problem = report.errors[0]
    assert problem.en and problem.ru and problem.en != problem.ru
    assert not report.ok


def test_checkpoint_mismatch_names_the_points_and_resynchronises() -> None:
    text = (
        HEAD
        + "1.\t6–5 24/13\t\n"
        + "Проверочная позиция. Белые: 24(2), 13(5), 8(3), 6(5); "
        + "чёрные: 1(2), 12(5), 17(3), 19(5).\n"
        + "\t\t4–2 12/16, 12/14\n"
        + "2.\t6–5 24/13\t\n"
    )
    report = validate_text(text)
    assert [(p.move, p.side, p.code) for p in report.errors] == [
        (1, "white", "record.checkpoint_mismatch")
    ]
    check = report.checkpoints[0]
    assert (check.move, check.side, check.ok) == (1, "white", False)
    assert check.diff == {
        "white": {"13": {"expected": 5, "actual": 6}, "24": {"expected": 2, "actual": 1}}
    }
    assert "13" in report.errors[0].ru and "24" in report.errors[0].en
    # The printed checkpoint became the board: White still has both back checkers to run.
    assert report.position.white[24] == 1


def test_replay_goes_on_after_an_impossible_roll() -> None:
    text = HEAD + "1.\t7–2 13/6, 13/11\t4–2 12/16, 12/14\n2.\t6–5 24/13\t4–4 1/5(2), 12/16(2)\n"
    report = validate_text(text)
    assert [p.code for p in report.errors] == ["record.bad_dice"]
    assert report.position.white[6] == 6 and report.position.white[11] == 1


def test_english_header_opening_rolls_and_automatic_double() -> None:
    text = (
        "Game 1. Backgammon.\nWhite: 3. Black: 3. Autodouble.\nWhite: 6. Black: 2.\n"
        "Move\tWhite\tBlack\n1.\t6-2 24/18, 13/11\tD4x\n\t– (Pass!)\t\n"
    )
    record = parse_record(text)
    assert record.autodoubles == 1 and record.first == "white"
    report = replay(record)
    assert report.ok
    assert report.result is not None
    assert report.result.as_dict() == {"winner": "black", "kind": "single", "cube": 2, "points": 2}


def test_chess_style_single_line_rows_and_alternatives_are_kept() -> None:
    text = (
        "Backgammon\n1. 6–5 24/18, 13/8 4–2 12/16, 12/14\n"
        "2. 3-1 8/5, 6/5 или 24/21, 24/23 5–3 17/22, 19/22\n"
    )
    record = parse_record(text)
    plays = record.plays
    assert [(p.move, p.side) for p in plays] == [
        (1, "white"),
        (1, "black"),
        (2, "white"),
        (2, "black"),
    ]
    assert plays[2].alternatives == ("24/21, 24/23",)
    assert replay(record).ok


def test_black_starting_puts_black_in_the_left_column() -> None:
    text = "Бэкгэммон.\nБелые: 2. Чёрные: 5.\n1. 5–2 12/17, 12/14 6–4 24/18, 13/9\n"
    record = parse_record(text)
    assert record.first == "black"
    assert [(p.move, p.side) for p in record.plays] == [(1, "black"), (1, "white")]
    report = replay(record)
    assert report.ok, report.errors


@pytest.mark.parametrize(
    ("head", "black", "kind", "points"),
    [
        (HEAD, "19(15)", "gammon", 2),  # none off, all in Black's own home
        (HEAD, "6(1), 19(14)", "backgammon", 3),  # one still in White's home
        (HEAD, "19(14)", "single", 1),  # one borne off
        (LONG, "01(15)", "mars", 2),  # long nardy: all home, none off
        (LONG, "7(1), 01(14)", "home_mars", 3),  # one not yet home
    ],
)
def test_result_kind_follows_the_variant_table(
    head: str, black: str, kind: str, points: int
) -> None:
    # A checkpoint sets up the ending (it differs from the start, which is reported),
    # then White bears off the last checker.
    text = head + f"Проверочная позиция. Белые: 1(1); чёрные: {black}.\n1.\t2–1 1/off\t\n"
    report = validate_text(text)
    assert [p.code for p in report.errors] == ["record.checkpoint_mismatch"]
    assert report.result is not None
    assert report.result.as_dict() == {"winner": "white", "kind": kind, "cube": 1, "points": points}


def test_russian_record_messages_read_as_russian() -> None:
    ended = HEAD + "1.\t6–5 24/13\t4–2 12/16, 12/14\n\tD2X\t– (Pass!)\n\tD4X\t\n"
    after = [p for p in validate_text(ended).errors if p.code == "record.moves_after_game_end"]
    assert after and "предложение давэ" in after[0].ru and "offer" not in after[0].ru
    turn = validate_text(HEAD + "\t\tD2X\n1.\t6–5 24/13\t4–2 12/16, 12/14\n").errors[0]
    assert turn.code == "record.double_out_of_turn"
    assert "Чёрные предлагают давэ" in turn.ru and "очередь белых бросать зары" in turn.ru
    no_roll = validate_text(HEAD + "1.\t— ∅\t\n").errors[0]
    assert "ни один бросок сыграть нельзя" in no_roll.ru


@pytest.mark.parametrize(
    "words",
    [
        # The same position as the printed numbers, in the ways a checkpoint is written in words.
        "Белые: две шашки на пункте 1, 2(две), на пункте 3 — четыре шашки, 4(2), одна на 5, "
        "три шашки на 6, 7(одна); чёрные: 24(две шашки), четыре шашки на 23, 22(2), 21(четыре), 19(2).",
        "White: two checkers on 1, 2(two), 3(4), two on 4, one on 5, 6(three), 7(1); "
        "Black: 24(2), 23(four checkers), two on 22, 21(4), 19 – two.",
    ],
)
def test_a_checkpoint_written_in_words_reads_as_the_numbers(words: str) -> None:
    numbers = "Белые: 1(2), 2(2), 3(4), 4(2), 5(1), 6(3), 7(1); чёрные: 24(2), 23(4), 22(2), 21(4), 19(2)."
    text = _book("book_game1_backgammon.txt")
    assert numbers in text
    report = replay(parse_record(text.replace(numbers, words)))
    assert report.errors == [] and [c.ok for c in report.checkpoints] == [True, True]
    # A count in words that is wrong is a mismatch, as a wrong number is.
    wrong = words.replace("две шашки на пункте 1", "три шашки на пункте 1").replace("two checkers on 1", "three checkers on 1")
    assert replay(parse_record(text.replace(numbers, wrong))).checkpoints[0].ok is False
