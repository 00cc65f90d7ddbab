"""Reading a book-style record (Part 6): text → :class:`~scoring.rules.records.events.Record`.

:func:`parse_record` walks the lines once: the header before the move table
(:mod:`scoring.rules.records.header`), then the table rows — each side's cell under a
move number (:mod:`scoring.rules.records.cells`), read into plies by
:mod:`scoring.rules.records.notation` — and the commentary between them, with the checkpoints
and cube marks printed in it (:mod:`scoring.rules.records.commentary`). Nothing printed
is dropped and nothing is judged here: an unreadable cell is kept with its problem, and
the replay (:mod:`scoring.rules.records.replay`) decides what is wrong.
"""

from __future__ import annotations

import re

from scoring.rules.errors import Problem
from scoring.rules.records.cells import (
    BLACK_WORD,
    DICE_START,
    HEADER_ROW,
    INLINE_ROW,
    MOVE_NO,
    WHITE_WORD,
    Lenient,
    cells_of_inline,
    is_cell,
    split_alternatives,
)
from scoring.rules.records.commentary import Commentary
from scoring.rules.records.events import ClaimEvent, CubeEvent, Event, PlayEvent, Record, other_side
from scoring.rules.records.header import Header, detect_numbering
from scoring.rules.records.notation import _fast_ply, try_parse_ply
from scoring.rules.variants import get_variant

#: A result stated on a line of its own (our multi-game export writes one per game, as the
#: .mat's "Wins 2 points"): ``White wins 2 points.`` / ``Белые выигрывают 2 очка.``
RESULT_LINE = re.compile(
    r"^(?P<side>white|black|белые|ч[её]рные)\s+(?:wins|выигрывают)\s+(?P<points>\d+)\s+"
    r"(?:points?|очк(?:о|а|ов))\.?$",
    re.IGNORECASE,
)


def parse_record(
    text: str,
    *,
    variant: str | None = None,
    numbering: str | None = None,
) -> Record:
    """Read a book-style record; ``variant``/``numbering`` override what the text says."""
    lines = text.splitlines()
    header = Header()
    events: list[Event] = []
    problems: list[Problem] = []
    column_sides: tuple[str, str] | None = None
    in_table = False
    current_move = 0
    lenient: Lenient = {}  # see commentary.commentary_cube
    commentary = Commentary(events, lenient)
    add_comment = commentary.add

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if claimed := RESULT_LINE.match(line.strip()):
            side = "white" if claimed.group("side").lower() in ("white", "белые") else "black"
            events.append(ClaimEvent(side, int(claimed.group("points")), line.strip(), number))
            continue
        parts = line.split("\t")
        if not in_table:
            if HEADER_ROW.search(parts[0]) and len(parts) >= 3:
                in_table = True
                w = next((i for i, p in enumerate(parts) if WHITE_WORD.search(p)), 1)
                b = next((i for i, p in enumerate(parts) if BLACK_WORD.search(p)), 2)
                column_sides = ("white", "black") if w <= b else ("black", "white")
                continue
            if INLINE_ROW.match(line) and DICE_START.search(line):
                in_table = True
            else:
                header.read(line)
                continue
        # ---- table body
        if len(parts) >= 2:
            number_cell = parts[0].strip()
            cells = [p.strip() for p in parts[1:3]] + [""] * (3 - len(parts[1:3]) - 1)
        else:
            inline = INLINE_ROW.match(line)
            if inline:
                number_cell = inline.group(1)
                cells = cells_of_inline(inline.group(2))
            else:
                number_cell, cells = "", [line.strip(), ""]
        numbered = MOVE_NO.match(number_cell)
        filled = [c for c in cells if c]
        if not numbered and number_cell:
            # Text in the number column: a comment or a checkpoint spanning the row.
            add_comment(" ".join([number_cell, *filled]).strip(), number)
            continue
        if not numbered and len(filled) == 1 and not is_cell(filled[0], lenient):
            add_comment(filled[0], number)
            continue
        if not filled:
            continue
        if commentary.pending is not None:
            commentary.close()
        if numbered:
            current_move = int(numbered.group(1))
        sides = column_sides or ("white", "black")
        first = header.first
        if first is not None and column_sides is None:
            sides = (first, other_side(first))
        row: list[Event] = []
        for side, cell in zip(sides, cells, strict=False):
            if not cell or cell.strip(" .…") == "":
                continue
            fast = _fast_ply(cell)
            if fast is not None:
                # A plain play (``6–2 13/7, 13/11``): no alternative, cube or remark can be
                # in it, so it is read at once (most cells of a record).
                row.append(PlayEvent(current_move, side, cell, fast, number))
                continue
            main, *alternatives = split_alternatives(cell)
            ply, problem = try_parse_ply(main, move=current_move, side=side, strict=False)
            if ply is not None and not ply.is_play:
                row.append(CubeEvent(ply.cube, side, current_move, main, number))
                continue
            # Alternatives printed with a bare "или" and in brackets ("(или …)") are one list.
            printed = tuple(alternatives) + (ply.alternatives if ply is not None else ())
            row.append(PlayEvent(current_move, side, main, ply, number, problem, printed))
        events.extend(offer_first(row))
    commentary.close()

    detected = header.variant()
    chosen_variant = variant or detected or "backgammon"
    get_variant(chosen_variant)
    found_numbering = detect_numbering(events)
    numbering_detected = found_numbering is not None
    chosen_numbering = numbering or found_numbering or "traditional"
    first = header.first
    if first is None:
        first = column_sides[0] if column_sides else "white"
    return Record(
        variant=chosen_variant,
        numbering=chosen_numbering,
        first=first,
        title=header.title,
        opening=header.opening,
        autodoubles=header.autodoubles,
        events=events,
        problems=problems,
        variant_detected=variant is None and detected is not None,
        numbering_detected=numbering is None and numbering_detected,
    )


def offer_first(row: list[Event]) -> list[Event]:
    """A row's two cube cells in the order they happened, read by their marks.

    The book prints a double and its answer on one row, each in its player's column: the
    offer with the multiplication sign, the take without it («предложенное давэ пишется со
    знаком умножения (x)», «запись “D4” … без знака умножения означает принятое давэ»). When
    the answer stands left of its offer (``D4`` | ``D4x``: the right-column player doubled),
    the offer still comes first; column order would read an answer before any offer.
    """
    if len(row) != 2 or not all(isinstance(e, CubeEvent) and e.actions for e in row):
        return row
    left, right = row
    assert isinstance(left, CubeEvent) and isinstance(right, CubeEvent)
    answer, offer = left.actions[0], right.actions[0]
    if answer.kind in ("take", "drop") and offer.kind == "offer" and answer.value in (None, offer.value):
        return [right, left]
    return row
