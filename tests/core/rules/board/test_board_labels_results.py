"""Positions, point labels, pip counts and game results (RULES.md §1 and §4)."""

from __future__ import annotations

import pytest

from scoring.rules import (
    BLACK,
    WHITE,
    Position,
    all_home,
    game_result,
    index_to_label,
    is_game_over,
    label_to_index,
    pip_count,
)
from scoring.rules.variants import VARIANTS


def test_every_variant_starts_with_its_checkers_and_a_valid_position():
    for key, v in VARIANTS.items():
        pos = Position.start(key)
        assert pos.validate() == []
        assert pos.checker_count(WHITE) == pos.checker_count(BLACK) == v.checkers


def test_backgammon_start_in_both_numberings_matches_the_book():
    pos = Position.start("backgammon")
    assert pos.labels(WHITE) == {"6": 5, "8": 3, "012": 5, "01": 2}
    assert pos.labels(BLACK) == {"06": 5, "08": 3, "12": 5, "1": 2}
    assert pos.labels(WHITE, "through") == {"6": 5, "8": 3, "13": 5, "24": 2}
    assert pos.labels(BLACK, "through") == {"19": 5, "17": 3, "12": 5, "1": 2}
    assert pip_count(pos, WHITE) == pip_count(pos, BLACK) == 167


def test_other_starts_follow_chapter_10():
    nack = Position.start("nackgammon")
    assert nack.labels(WHITE) == {"6": 4, "8": 3, "012": 4, "02": 2, "01": 2}
    hyper = Position.start("hypergammon")
    assert hyper.labels(BLACK) == {"3": 1, "2": 1, "1": 1}
    long = Position.start("long_nardy")
    assert long.labels(WHITE) == {"012": 15} and long.labels(BLACK) == {"12": 15}


@pytest.mark.parametrize(
    ("label", "side", "numbering", "geometry", "index"),
    [
        ("01", WHITE, "traditional", "short", 24),
        ("012", WHITE, "traditional", "short", 13),
        ("01", BLACK, "traditional", "short", 1),
        ("12", BLACK, "traditional", "short", 13),
        ("24", BLACK, "through", "short", 1),  # book: Black's home point 1 is 24
        ("19", BLACK, "through", "short", 6),
        ("012", WHITE, "traditional", "long", 24),  # White's head
        ("06", WHITE, "traditional", "long", 18),  # 6-6 from the head lands on 06
        ("12", BLACK, "traditional", "long", 24),  # Black's head
        ("012", BLACK, "traditional", "long", 12),  # ...and Black's 6/012 from 6
        ("Bar", WHITE, "through", "short", 25),
        ("off", BLACK, "traditional", "long", 0),
    ],
)
def test_label_examples_from_the_book(label, side, numbering, geometry, index):
    assert label_to_index(label, side, numbering, geometry) == index


def test_labels_round_trip_for_every_point_side_numbering_and_geometry():
    for geometry in ("short", "long"):
        for numbering in ("traditional", "through"):
            for side in (WHITE, BLACK):
                labels = {index_to_label(i, side, numbering, geometry) for i in range(0, 26)}
                assert len(labels) == 26
                for i in range(26):
                    lab = index_to_label(i, side, numbering, geometry)
                    assert label_to_index(lab, side, numbering, geometry) == i


@pytest.mark.parametrize("bad", ["013", "0", "25", "x", "00"])
def test_bad_labels_are_rejected(bad):
    with pytest.raises(ValueError):
        label_to_index(bad, WHITE, "traditional")


def _finished(loser_points: dict[str, int], variant: str, loser_off: int = 0) -> Position:
    return Position.from_labels({}, loser_points, WHITE, variant, black_off=loser_off)


@pytest.mark.parametrize(
    ("variant", "loser", "off", "kind", "value"),
    [
        ("backgammon", {"01": 14}, 1, "single", 1),
        ("backgammon", {"01": 15}, 0, "gammon", 2),
        ("backgammon", {"012": 15}, 0, "gammon", 2),
        ("backgammon", {"012": 14, "6": 1}, 0, "backgammon", 3),  # in the winner's home
        ("backgammon", {"012": 14, "bar": 1}, 0, "backgammon", 3),
        ("short_nardy", {"01": 14}, 1, "oyun", 1),
        ("short_nardy", {"06": 15}, 0, "mars", 2),
        ("short_nardy", {"06": 14, "6": 1}, 0, "home_mars", 4),
        ("short_nardy", {"06": 14, "bar": 1}, 0, "koks", 8),
        ("long_nardy", {"01": 10}, 5, "oyun", 1),
        ("long_nardy", {"01": 15}, 0, "mars", 2),
        ("long_nardy", {"01": 14, "12": 1}, 0, "home_mars", 3),
    ],
)
def test_results_per_scoring_table(variant, loser, off, kind, value):
    pos = _finished(loser, variant, off)
    assert is_game_over(pos)
    assert game_result(pos) == (WHITE, kind, value)


def test_oyun_mars_table_has_no_third_kind():
    pos = _finished({"012": 14, "bar": 1}, "short_nardy")
    assert game_result(pos, "oyun_mars") == (WHITE, "mars", 2)


def test_unfinished_game_has_no_result_and_home_detection():
    pos = Position.start("backgammon")
    assert game_result(pos) is None and not is_game_over(pos)
    home = Position.from_labels({"1": 15}, {"06": 15})
    assert all_home(home, WHITE) and all_home(home, BLACK)
    assert not all_home(pos, WHITE)


def test_validate_reports_bad_positions():
    w = [0] * 26
    w[24] = 14
    b = Position.start().black
    assert "white has 14 checkers, not 15" in Position(tuple(w), b).validate()
    w[24] = 15
    clash = list(b)
    clash[6] -= 1
    clash[1] += 1  # Black's 1 is White's 24, where all of White's checkers stand
    assert any("both colours" in r for r in Position(tuple(w), tuple(clash)).validate())
    assert Position(tuple(w), b).validate() == []
