"""Commentary lines: the checkpoints and cube marks printed in them, kept with the prose.

The book prints more than moves between the table rows: a checkpoint position to verify
the replay against (``Проверочная позиция. Белые: …; чёрные: …``, possibly broken over a
page, so it is gathered across lines), and cube marks that open or close a commentary
line (``D8X. Игрок белыми…``, ``… принято. D8``). These become events of their own; the
commentary itself is always kept as text too, so nothing printed is dropped.
"""

from __future__ import annotations

import re

from scoring.rules.records.cells import Lenient
from scoring.rules.records.events import CheckpointEvent, CommentEvent, CubeEvent, Event
from scoring.rules.records.notation import (
    CubeAction,
    parse_cube_token,
    starts_as_prose,
    try_parse_ply,
)

CHECK_WHITE = re.compile(r"(?:белые|white)[^:;]{0,40}:", re.IGNORECASE)
CHECK_BLACK = re.compile(r"(?:ч[её]рные|black)[^:;]{0,40}:", re.IGNORECASE)
#: Checker counts written in words, as the book sometimes prints a checkpoint: «6(пять)»,
#: «две шашки на 8», «на пункте 012 — семь шашек» (one to fifteen, any gender/case used).
COUNT_WORDS = {
    "одна": 1, "один": 1, "одну": 1, "две": 2, "два": 2, "три": 3, "четыре": 4, "пять": 5,
    "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11,
    "двенадцать": 12, "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
}
_COUNT = r"(\d{1,2}|" + "|".join(sorted(COUNT_WORDS, key=len, reverse=True)) + r")"
_CHECKERS = r"(?:\s+(?:шаш\w*|checkers?))?"
_LABEL = r"(0?\d{1,2}|bar|бар)"
_POINT = r"(?:(?:на\s+)?(?:пункте|пункт|п\.|point|on(?:\s+point)?|на)\s*)?"
#: ``6(5)``, ``6 (пять шашек)``: the label, then the count in brackets.
CHECK_ITEM = re.compile(rf"(?<![\w/]){_LABEL}\s*\(\s*{_COUNT}{_CHECKERS}\s*\)", re.IGNORECASE)
#: ``пять шашек на пункте 6``, ``two checkers on 8``: the count first.
CHECK_COUNT_FIRST = re.compile(rf"(?<![\w/]){_COUNT}{_CHECKERS}\s+{_POINT}{_LABEL}(?![\w/(])", re.IGNORECASE)
#: ``на пункте 012 — семь шашек``, ``пункт 6: пять``: the label, a dash or colon, the count.
CHECK_LABEL_FIRST = re.compile(
    rf"(?<![\w/]){_POINT}{_LABEL}\s*[—–:-]\s*{_COUNT}{_CHECKERS}(?![\w/(])", re.IGNORECASE
)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else COUNT_WORDS[word.lower()]


def _checkpoint_items(segment: str) -> tuple[tuple[str, int], ...]:
    """The ``(label, count)`` pairs of one side's part of a checkpoint, however it writes them.

    Bracketed counts (``6(5)``, the usual form) are read first; the other forms are read
    only where no bracketed pair is, so a point is never counted twice.
    """
    items: dict[str, int] = {}

    def add(label: str, count: str) -> None:
        key = "bar" if label.lower() in ("bar", "бар") else label
        items[key] = items.get(key, 0) + _count(count)

    for label, count in CHECK_ITEM.findall(segment):
        add(label, count)
    rest = CHECK_ITEM.sub(" ", segment)
    for pattern, order in ((CHECK_COUNT_FIRST, (2, 1)), (CHECK_LABEL_FIRST, (1, 2))):
        taken: list[tuple[int, int]] = []
        for found in pattern.finditer(rest):
            label, count = found.group(order[0]), found.group(order[1])
            # Bare digits in prose ("дубль 4–4") are not a checkpoint: a count in words
            # or the word "checkers" says it is one.
            if count.isdigit() and not re.search(r"шаш|checker", found.group(0), re.IGNORECASE):
                continue
            add(label, count)
            taken.append(found.span())
        for start, end in reversed(taken):  # read once: the next form does not see it again
            rest = rest[:start] + " " + rest[end:]
    return tuple(items.items())


def parse_checkpoint(text: str, line: int) -> CheckpointEvent | None:
    """``Проверочная позиция. Белые: 6(5), …; чёрные: …`` as an event, or None if it is not one."""
    white = CHECK_WHITE.search(text)
    black = CHECK_BLACK.search(text, white.end() if white else 0)
    if not white or not black:
        return None
    white_items = _checkpoint_items(text[white.end() : black.start()])
    black_items = _checkpoint_items(text[black.end() :])
    if not white_items and not black_items:
        return None
    return CheckpointEvent(white_items, black_items, text.strip(), line)


def commentary_cube(text: str, lenient: Lenient | None = None) -> tuple[CubeAction, ...]:
    """Cube marks that open a commentary line, and one that closes it (``… принято. D8``).

    ``lenient`` holds ``try_parse_ply(text, strict=False)`` results already computed
    for this text (by :func:`~scoring.rules.records.cells.is_cell`): the strict reading differs only by refusing
    impossible dice, so it is derived instead of reading a long comment twice.
    """
    if starts_as_prose(text):
        return ()  # no cube mark can open it, so none is read at its end either
    known = lenient.get(text) if lenient is not None else None
    if known is None:
        ply, problem = try_parse_ply(text)
    else:
        ply, problem = known
        if ply is not None and ply.dice is not None and not all(1 <= d <= 6 for d in ply.dice):
            ply = None  # the strict reading refuses the roll
    actions: list[CubeAction] = []
    if ply is not None and problem is None and not ply.is_play:
        actions.extend(ply.cube)
    if actions:
        sentences = re.split(r"(?<=[.!?])\s+", text.strip())
        if len(sentences) > 1:
            last = parse_cube_token(sentences[-1])
            if last is not None:
                actions.append(last)
    return tuple(actions)


class Commentary:
    """The commentary of one reading, turned into events as its lines arrive.

    Stateful because a checkpoint may be broken over lines (a page break in the book):
    ``pending`` holds its start until the black side's part arrives; a table row or the
    end of the text closes it as plain commentary.
    """

    __slots__ = ("events", "lenient", "pending")

    def __init__(self, events: list[Event], lenient: Lenient) -> None:
        self.events = events
        self.lenient = lenient
        self.pending: tuple[str, int] | None = None

    def close(self) -> None:
        """Keep an unfinished checkpoint as the commentary it turned out to be."""
        if self.pending is not None:
            self.events.append(CommentEvent(self.pending[0], self.pending[1]))
            self.pending = None

    def add(self, body: str, line_no: int) -> None:
        """One line (or row) of commentary."""
        events = self.events
        pending_check = self.pending
        if pending_check is not None:
            joined = f"{pending_check[0]} {body}"
            event = parse_checkpoint(joined, pending_check[1])
            if event is not None and CHECK_BLACK.search(joined):
                events.append(event)
                self.pending = None
                return
            self.pending = pending_check = (joined, pending_check[1])
            if len(joined) > 1500:
                events.append(CommentEvent(joined, pending_check[1]))
                self.pending = None
            return
        cube = commentary_cube(body, self.lenient)
        if cube:
            events.append(CubeEvent(cube, None, None, body, line_no))
            events.append(CommentEvent(body, line_no))
            return
        looks_like_check = bool(CHECK_WHITE.search(body)) and bool(CHECK_ITEM.search(body))
        if looks_like_check:
            event = parse_checkpoint(body, line_no)
            if event is not None:
                events.append(event)
                events.append(CommentEvent(body, line_no))
                return
            self.pending = (body, line_no)
            return
        events.append(CommentEvent(body, line_no))
