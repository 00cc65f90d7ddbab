"""Printing a record back in the book's two-column layout, the reverse of reading it.

Kept apart from the reader because it is the only writer: plays are printed from their
parsed form (:func:`scoring.rules.records.notation.format_ply`), unreadable cells as printed,
and commentary lines are kept, so a record survives a round trip.
"""

from __future__ import annotations

from scoring.rules.records.events import CommentEvent, PlayEvent, Record, other_side
from scoring.rules.records.notation import format_ply
from scoring.rules.variants import get_variant


def format_record(record: Record, lang: str = "en") -> str:
    """Print a record back in the book's two-column layout (commentary lines kept)."""
    head = "№ хода\tБелые:\tЧёрные:" if lang.startswith("ru") else "Move\tWhite:\tBlack:"
    if record.first == "black":
        head = "№ хода\tЧёрные:\tБелые:" if lang.startswith("ru") else "Move\tBlack:\tWhite:"
    out = [record.title or get_variant(record.variant).name_en, "", head]
    row: dict[str, str] = {}
    row_move = None

    def flush() -> None:
        nonlocal row, row_move
        if row_move is not None and row:
            left = row.get(record.first, "...")
            right = row.get(other_side(record.first), "")
            out.append(f"{row_move}.\t{left}\t{right}".rstrip("\t"))
        row, row_move = {}, None

    for event in record.events:
        if isinstance(event, PlayEvent):
            if row_move is not None and (row_move != event.move or event.side in row):
                flush()
            row_move = event.move
            row[event.side] = format_ply(event.ply, lang) if event.ply else event.text
        elif isinstance(event, CommentEvent):
            flush()
            out.append(f"\t{event.text}\t")
    flush()
    return "\n".join(out) + "\n"


def result_line(winner: str, points: int, english: bool) -> str:
    """A game's end as the book's record prints it under the game ("Белые выигрывают 2 очка."):
    written by the record export and the live board alike, so both read back the same."""
    if english:
        return f"{winner.capitalize()} wins {points} point{'s' if points != 1 else ''}."
    word = "очко" if points % 10 == 1 and points % 100 != 11 else (
        "очка" if points % 10 in (2, 3, 4) and points % 100 not in (12, 13, 14) else "очков"
    )
    return f"{'Белые' if winner == 'white' else 'Чёрные'} выигрывают {points} {word}."
