"""The book's single-ply notation (ch7, Part 6): reading, printing, and located errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.records.notation import (
    BAR,
    OFF,
    Chain,
    CubeAction,
    NotationError,
    Ply,
    format_ply,
    numbering_of,
    parse_cube_token,
    parse_ply,
    try_parse_ply,
)
from tests.paths import DATA

RECORDS = DATA / "records"


def _book_cells() -> list[str]:
    cells = []
    for name in ("book_game1_backgammon.txt", "book_game4_long_nardy.txt"):
        for line in (RECORDS / name).read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) >= 3 and re.fullmatch(r"\d+\.", parts[0].strip()):
                cells.extend(c.strip() for c in parts[1:3] if c.strip() and c.strip() != "...")
    return cells


def test_every_numbered_cell_of_the_book_reads_and_prints_back() -> None:
    cells = _book_cells()
    assert len(cells) > 80
    for cell in cells:
        ply = parse_ply(cell)
        assert parse_ply(format_ply(ply)) == ply, cell


def test_dice_accept_en_dash_and_hyphen_and_keep_the_printed_order() -> None:
    assert parse_ply("6–5 13/7, 13/8").dice == (6, 5)
    assert parse_ply("6-5 13/7, 13/8") == parse_ply("6–5 13/7, 13/8")
    assert parse_ply("2-5 13/11, 13/8").dice == (2, 5)


def test_chain_hits_and_repeat() -> None:
    ply = parse_ply("3–3 012/10/7*(2)")
    assert ply.chains == (Chain(("012", "10", "7"), (False, False, True), 2),)
    assert parse_ply("4–2 8/4*, 6/4").chains[0].hits == (False, True)


def test_bar_and_off_in_english_and_russian() -> None:
    english = parse_ply("5–4 Bar/4/9, 5/off")
    russian = parse_ply("5–4 бар/4/9, 5/двор")
    assert english == russian
    assert english.chains[0].path == (BAR, "4", "9")
    assert english.chains[1].path == ("5", OFF)
    assert format_ply(english, "ru") == "5–4 бар/4/9, 5/двор"
    assert format_ply(english, "en") == "5–4 Bar/4/9, 5/off"


@pytest.mark.parametrize("sign", ["Ø", "∅"])
def test_pass_signs_whole_and_partial(sign: str) -> None:
    assert parse_ply(f"6–6 {sign}").passed
    partial = parse_ply(f"5–1 7/6, {sign}")
    assert partial.passed and partial.chains[0].path == ("7", "6")
    assert parse_ply(f"8/5, {sign}").dice is None  # a fragment as printed in ch7


def test_no_roll_pass_remarks_and_quality_marks() -> None:
    no_roll = parse_ply("— ∅")
    assert no_roll.no_roll and no_roll.dice is None and no_roll.is_play
    remarks = parse_ply("5–1 7/6, Ø (Pass 5) P6")
    assert remarks.pass_remarks == (5, 6)
    marked = parse_ply("6–2 12/6!, 11/9?? ?!")
    assert [c.mark for c in marked.chains] == ["!", "??"]
    assert marked.mark == "?!"
    for mark in ("?", "??", "!", "!!", "?!", "!?", "="):
        assert parse_ply(f"6–5 13/8 {mark}").mark == mark


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("D4x", CubeAction("offer", 4)),
        ("D4X", CubeAction("offer", 4)),
        ("4x", CubeAction("offer", 4)),
        ("double to 4", CubeAction("offer", 4)),
        ("D4", CubeAction("take", 4)),
        ("B32x", CubeAction("beaver", 32)),
        ("B32", CubeAction("beaver", 32)),
        ("R64x", CubeAction("raccoon", 64)),
        ("AD2", CubeAction("auto", 2)),
        ("– (Pass!)", CubeAction("drop")),
        ("(Пас!)", CubeAction("drop")),
    ],
)
def test_cube_marks(text: str, action: CubeAction) -> None:
    ply = parse_ply(text)
    assert ply.cube == (action,) and not ply.is_play
    assert parse_cube_token(text) == action


def test_take_and_beaver_in_one_cell_then_a_play() -> None:
    ply = parse_ply("D16. B32 6–6 15/21(2)")
    assert ply.cube == (CubeAction("take", 16), CubeAction("beaver", 32))
    assert ply.dice == (6, 6)


def test_trailing_commentary_is_kept() -> None:
    ply = parse_ply("6–3 1/010, 2/08. Чярдар (08...011).")
    assert ply.comment == "Чярдар (08...011)."
    assert len(ply.chains) == 2


def test_parse_errors_are_located_problems() -> None:
    with pytest.raises(NotationError) as bad_dice:
        parse_ply("7–2 13/8", move=4, side="white")
    assert bad_dice.value.problem.code == "record.bad_dice"
    assert bad_dice.value.problem.details["pos"] == 0
    assert bad_dice.value.problem.move == 4 and "7–2" in bad_dice.value.problem.ru

    ply, problem = try_parse_ply("6–5 13/30")
    assert ply is None and problem is not None
    assert problem.code == "record.bad_point" and problem.details["pos"] == 7
    assert "30" in problem.en and "30" in problem.ru

    ply, problem = try_parse_ply("6–5 13/7 Brr/4")
    assert problem is not None and problem.code == "record.unparsable" and problem.details["pos"] == 9

    _, problem = try_parse_ply("5–1 7/6, Ø, 8/3")
    assert problem is not None and problem.code == "record.unparsable"

    # Lenient mode keeps an impossible roll so the replay can still follow the checkers.
    assert parse_ply("7–2 13/8", strict=False).dice == (7, 2)


def test_numbering_is_recognised_from_labels() -> None:
    assert numbering_of(["012", "06", "01"]) == {"traditional"}
    assert numbering_of(["24", "20", "13"]) == {"through"}
    assert numbering_of(["8", "5"]) == {"traditional", "through"}
    assert numbering_of(["24", "012"]) == set()


# --------------------------------------------------------------------------- properties

_point = st.one_of(
    st.integers(1, 24).map(str),
    st.integers(1, 12).map(lambda n: f"0{n}"),
)
_chain = st.builds(
    lambda start, rest, hits, repeat, mark: Chain(
        (start, *rest), (False, *hits[: len(rest)]), repeat, mark
    ),
    st.one_of(_point, st.just(BAR)),
    st.lists(_point, min_size=1, max_size=3)
    .map(tuple)
    .flatmap(lambda rest: st.one_of(st.just(rest), st.just((*rest[:-1], OFF)))),
    st.lists(st.booleans(), min_size=3, max_size=3).map(tuple),
    st.integers(1, 4),
    st.sampled_from([None, "?", "??", "!", "!!", "?!", "!?", "="]),
).filter(lambda c: len(c.hits) == len(c.path))
_cube = st.one_of(
    st.builds(CubeAction, st.sampled_from(["offer", "take", "beaver", "raccoon", "auto"]),
              st.sampled_from([2, 4, 8, 16, 32, 64])),
)  # fmt: skip


@st.composite
def plies(draw: st.DrawFn) -> Ply:
    cube = tuple(draw(st.lists(_cube, max_size=2)))
    kind = draw(st.sampled_from(["play", "pass", "partial", "no_roll", "cube_only", "drop"]))
    if kind == "drop":
        return Ply(cube=(CubeAction("drop"),))
    if kind == "cube_only":
        return Ply(cube=cube or (CubeAction("offer", 2),))
    if kind == "no_roll":
        return Ply(no_roll=True, cube=cube)
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    chains = () if kind == "pass" else tuple(draw(st.lists(_chain, min_size=1, max_size=4)))
    return Ply(
        dice=dice,
        chains=chains,
        passed=kind != "play",
        cube=cube,
        pass_remarks=tuple(draw(st.lists(st.integers(1, 6), max_size=2))),
        mark=draw(st.sampled_from([None, "?", "!", "?!", "="])),
        comment=draw(st.sampled_from([None, "Хороший ход.", "A quiet move"])),
        alternatives=tuple(draw(st.lists(st.sampled_from(["24/13", "13/7, 13/11", "8/5*"]), max_size=2))),
        remarks=tuple(draw(st.lists(st.sampled_from(["форсированно", "forced", "по книге"]), max_size=2))),
    )


@settings(max_examples=300, deadline=None)
@given(plies(), st.sampled_from(["en", "ru"]))
def test_format_then_parse_is_identity(ply: Ply, lang: str) -> None:
    text = format_ply(ply, lang)
    assert parse_ply(text) == ply, text


@settings(max_examples=200, deadline=None)
@given(plies())
def test_printed_text_is_a_fixed_point(ply: Ply) -> None:
    text = format_ply(ply)
    assert format_ply(parse_ply(text)) == text
