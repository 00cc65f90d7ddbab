"""The replayer's remembered label conversions give the board's own answer in any order.

The record replayer keeps each printed label's board index per (numbering, side, geometry)
for speed; a record validated after others (a different game, numbering or side) must
still have every printed point read exactly as :func:`label_to_index` reads it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.board.position import label_to_index
from scoring.rules.records.notation import Chain, Ply
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import Replayer
from scoring.rules.variants import get_variant

LABELS = [str(n) for n in range(1, 25)] + [f"0{n}" for n in range(1, 13)] + ["bar", "off"]
VARIANTS = ("backgammon", "long_nardy")
REPLAYERS = {v: Replayer(parse_record("№ хода\tБелые:\tЧёрные:\n", variant=v)) for v in VARIANTS}

printed_step = st.tuples(
    st.sampled_from(VARIANTS),
    st.sampled_from(("traditional", "through")),
    st.sampled_from(("white", "black")),
    st.sampled_from(LABELS),
    st.sampled_from(LABELS),
    st.booleans(),
    st.integers(min_value=1, max_value=4),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(printed_step, min_size=1, max_size=25))
def test_printed_points_convert_as_the_board_says_whatever_came_before(
    sequence: list[tuple[str, str, str, str, str, bool, int]],
) -> None:
    for variant, numbering, side, a, b, hit, repeat in sequence:
        geometry = get_variant(variant).geometry
        side_index = 0 if side == "white" else 1
        ply = Ply(dice=(6, 5), chains=(Chain((a, b), (False, hit), repeat),))
        try:
            src = label_to_index(a, side_index, numbering, geometry)
            dst = label_to_index(b, side_index, numbering, geometry)
        except ValueError:
            try:
                REPLAYERS[variant]._steps(ply, side, numbering)
            except ValueError:
                continue
            raise AssertionError(f"{a}/{b} accepted in {numbering} numbering") from None
        steps = REPLAYERS[variant]._steps(ply, side, numbering)
        assert [(s.src, s.dst, s.hit) for s in steps] == [(src, dst, True if hit else None)] * (
            repeat
        )
