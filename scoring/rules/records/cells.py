"""One line of the move table cut into cells, and whether a cell is a move or prose.

The book prints moves in tab-separated columns (``12.<TAB>6–5 01/07/012<TAB>3–3 …``) or,
chess-style, on one line (``12. 6–5 01/07/012 3–3 012/10/7(2);``); a cell may carry
``или``/``or`` alternatives. Telling a broken cell (flagged) from a line of commentary
(kept as text) is the delicate part, so it is said once here for the reader
(:mod:`scoring.rules.records.reader`) and the commentary (:mod:`scoring.rules.records.commentary`).
"""

from __future__ import annotations

import re

from scoring.rules.errors import Problem
from scoring.rules.records.notation import Ply, starts_as_prose, try_parse_ply

#: A move number alone in its column (``12``, ``12.``).
MOVE_NO = re.compile(r"^\s*(\d{1,3})\s*\.?\s*$")
#: A chess-style row: the number, then both sides' cells on one line.
INLINE_ROW = re.compile(r"^\s*(\d{1,3})\.\s+(.*)$")
#: The table's header row (``№ хода  Белые:  Чёрные:``), which also says the column order.
HEADER_ROW = re.compile(r"(№\s*хода|^\s*move\b|^\s*#)", re.IGNORECASE)
WHITE_WORD = re.compile(r"бел|white", re.IGNORECASE)
BLACK_WORD = re.compile(r"ч[её]рн|black", re.IGNORECASE)
#: ``или``/``or`` between a cell's play and its printed alternatives.
ALTERNATIVE = re.compile(r"\s+(?:или|or)\s+", re.IGNORECASE)
#: Where a roll starts (``6–5``, ``–Ø``, ``Ø``): a cell begins with one.
DICE_START = re.compile(r"(?<![\d/])[0-9]\s*[-–—−]\s*[0-9](?![\d/])|[-–—−]\s*[Øø∅]|(?<!\w)Ø")

#: ``try_parse_ply(text, strict=False)`` results by text, shared by one reading: see
#: :func:`scoring.rules.records.commentary.commentary_cube`.
Lenient = dict[str, tuple[Ply | None, Problem | None]]


def split_alternatives(cell: str) -> list[str]:
    """The played cell and its bare ``или``/``or`` alternatives (not those in brackets).

    ``6–5 13/7, 13/8 или 24/13`` → ``["6–5 13/7, 13/8", "24/13"]``; a bracketed
    ``(или 24/13)`` stays in the cell for the notation reader, which keeps it as an annotation.
    """
    if "(" not in cell:
        return ALTERNATIVE.split(cell)
    parts: list[str] = []
    last = 0
    for found in ALTERNATIVE.finditer(cell):
        depth = cell.count("(", 0, found.start()) - cell.count(")", 0, found.start())
        if depth <= 0:
            parts.append(cell[last : found.start()])
            last = found.end()
    parts.append(cell[last:])
    return parts


def cells_of_inline(rest: str) -> list[str]:
    """Split ``6–5 01/07/012 3–3 012/10/7(2);`` (chess-style, one line) into two cells."""
    rest = rest.strip().rstrip(";")
    starts = [m.start() for m in DICE_START.finditer(rest)]
    if rest.startswith("..."):
        tail = rest[3:].strip()
        return ["...", tail]
    if len(starts) >= 2:
        return [rest[: starts[1]].strip().rstrip(","), rest[starts[1] :].strip()]
    return [rest, ""]


def is_cell(text: str, lenient: Lenient | None = None) -> bool:
    """Whether a lone cell is a move (possibly a broken one) rather than commentary."""
    if starts_as_prose(text):
        return False  # unreadable as a cell, and no roll to flag it as a broken one
    ply, problem = try_parse_ply(text, strict=False)
    if lenient is not None:
        lenient[text] = (ply, problem)
    if problem is not None:
        return bool(DICE_START.match(text.strip()))
    return ply is not None and ply.comment is None or (ply is not None and ply.is_play)
