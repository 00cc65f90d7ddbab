"""A plain cell reads the same through the quick path as through the general reader.

Most cells of a record (``6–2 13/7, 13/11``) take a shortcut; the same play spelled so
that the shortcut does not apply (``6 – 2``) goes through the general reader. Both must
give the same ply, or a record's meaning would depend on its spacing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.records.notation import _PROSE_FIRST, parse_ply, starts_as_prose, try_parse_ply

LABEL = st.sampled_from(
    [str(n) for n in range(1, 25)]
    + [f"0{n}" for n in range(1, 13)]
    + ["Bar", "bar", "off", "00", "25", "013", "7", "07"]
)
CHAIN = st.tuples(st.lists(LABEL, min_size=2, max_size=4), st.integers(min_value=0, max_value=4))


def _chain_text(chain: tuple[list[str], int]) -> str:
    labels, repeat = chain
    return "/".join(labels) + (f"({repeat})" if repeat else "")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=1, max_value=6),
    st.lists(CHAIN, min_size=1, max_size=4),
)
def test_plain_cell_reads_alike_whatever_the_spacing(
    d1: int, d2: int, chains: list[tuple[list[str], int]]
) -> None:
    body = ", ".join(_chain_text(c) for c in chains)
    quick_text, general_text = f"{d1}–{d2} {body}", f"{d1} – {d2} {body}"
    outcomes = []
    for text in (quick_text, general_text):
        try:
            outcomes.append(("ply", parse_ply(text, strict=False)))
        except ValueError as exc:  # NotationError: a point that does not exist
            outcomes.append(("error", type(exc).__name__, exc.problem.code))  # type: ignore[attr-defined]
    assert outcomes[0] == outcomes[1]


# Pieces that make a token of the reader with the right first letter ("Д" + "авэ до 8",
# "П" + "6", "б" + "ар", "o" + "ff", "A" + "D2", ...): every prose letter is tried with each.
PIECES = ["6", "2", "ар", "орт", "авэ до 8", "ass", "ас", "вор", "ывод", "ff", "ar", "D2",
          "rop", "ывод/5", "ар/5", "орт/5", "вор/5", "ff/5", "ar/5", "ouble to 4", "bl to 4", "двоение до 4", "6–5 13/7", "/5", " 13/7"]  # fmt: skip


def test_a_line_starting_as_prose_is_never_read_as_a_cell() -> None:
    for first in sorted(_PROSE_FIRST):
        for piece in PIECES:
            text = first + piece
            assert starts_as_prose(text)
            for strict in (True, False):
                ply, problem = try_parse_ply(text, strict=strict)
                assert ply is None and problem is not None, text
                assert (problem.code, problem.details["pos"]) == ("record.unparsable", 0), text
