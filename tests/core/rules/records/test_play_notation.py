"""parse_play / format_play: a play printed in either numbering reads back as the same play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    Position,
    RuleViolation,
    format_play,
    legal_plays,
    parse_play,
)
from scoring.rules.board.position import WHITE

SHORT = ("backgammon", "short_nardy", "caucasian", "nackgammon")


def test_position_knows_its_legal_plays() -> None:
    start = Position.start("backgammon")
    assert start.legal_plays((6, 5)) == legal_plays(start, (6, 5))


def test_book_play_reads_in_both_numberings() -> None:
    start = Position.start("backgammon", WHITE)
    through = parse_play(start, "6–5 24/13", numbering="through")
    traditional = parse_play(start, "6–5 01/012", numbering="traditional")
    assert through == traditional
    assert format_play(start, through, numbering="through") in ("24/18, 18/13", "24/13", "24/19, 19/13")


def test_an_illegal_play_raises_with_its_problems() -> None:
    start = Position.start("backgammon")
    with pytest.raises(RuleViolation) as info:
        parse_play(start, "6–5 12/7, 13/7", numbering="through")
    assert info.value.problems[0].code == "record.no_checker"
    with pytest.raises(RuleViolation) as info:
        parse_play(start, "13/7, 13/8", numbering="through")
    assert info.value.problems[0].code == "record.missing_dice"


def _walk(variant: str, rolls: list[tuple[int, int]], picks: list[int]) -> list[tuple[Position, tuple[int, int]]]:
    position = Position.start(variant)
    seen = []
    for roll, pick in zip(rolls, picks, strict=False):
        plays = legal_plays(position, roll)
        seen.append((position, roll))
        position = plays[pick % len(plays)].position
    return seen


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from((*SHORT, "long_nardy")),
    rolls=st.lists(dice, min_size=1, max_size=30),
    picks=st.lists(st.integers(0, 10_000), min_size=30, max_size=30),
    numbering=st.sampled_from(("traditional", "through")),
)
def test_format_then_parse_gives_the_same_play(variant, rolls, picks, numbering) -> None:
    if variant == "long_nardy" and numbering == "through":
        numbering = "traditional"  # the book numbers long nardy traditionally only
    for position, roll in _walk(variant, rolls, picks):
        for play in legal_plays(position, roll):
            text = format_play(position, play, numbering=numbering)
            again = parse_play(position, text, dice=roll, numbering=numbering)
            assert again.position == play.position, (text, roll)
