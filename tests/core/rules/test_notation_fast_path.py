"""A plain cell reads the same through the quick path as through the general reader.

Most cells of a record (``6–2 13/7, 13/11``) take a shortcut; the same play spelled so
that the shortcut does not apply (``6 – 2``) goes through the general reader. Both must
give the same ply, or a record's meaning would depend on its spacing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.notation import parse_ply

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
