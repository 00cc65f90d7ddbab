"""What a record says about itself: the game it is, the opening roll, who starts, the numbering.

The lines before the move table carry the title (``Партия №4. Длинные нарды.``), the
opening roll(s) (``Белые: 3. Чёрные: 3. Автодубль.``) and sometimes who moves first;
the numbering (traditional ``01…012`` or through ``1…24``) is never said and is read
off the labels the moves use. Each guess can be overridden by the caller of
:func:`scoring.rules.records.reader.parse_record`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scoring.rules.records.events import CheckpointEvent, Event, PlayEvent
from scoring.rules.records.notation import BAR, OFF, numbering_of

_VARIANT_WORDS: tuple[tuple[str, str], ...] = (
    ("карзар", "karzar"),
    ("karzar", "karzar"),
    ("длинные нард", "long_nardy"),
    ("длинных нард", "long_nardy"),
    ("long nard", "long_nardy"),
    ("джанг", "long_nardy"),
    ("нэкгэммон", "nackgammon"),
    ("nackgammon", "nackgammon"),
    ("гипергэммон", "hypergammon"),
    ("hypergammon", "hypergammon"),
    ("кавказск", "caucasian"),
    ("caucasian", "caucasian"),
    ("бэкгэммон", "backgammon"),
    ("backgammon", "backgammon"),
    ("короткие нард", "short_nardy"),
    ("триктрак", "short_nardy"),
    ("short nard", "short_nardy"),
)

_TITLE = re.compile(r"парти[яи]\s*№|^game\b", re.IGNORECASE)
_OPENING = re.compile(
    r"(?:белые|white)\s*:\s*([0-9])\s*\.?\s*(?:ч[её]рные|black)\s*:\s*([0-9])", re.IGNORECASE
)
_AUTODOUBLE = re.compile(r"автодубль|autodoubl|automatic double|\bAD\d+\b", re.IGNORECASE)
_FIRST = re.compile(
    r"(?P<w>белые ходят первыми|white (?:moves|plays|goes) first)"
    r"|(?P<b>ч[её]рные ходят первыми|black (?:moves|plays|goes) first)",
    re.IGNORECASE,
)


def detect_variant(text: str) -> str | None:
    """The game a record's title names (``Партия №4. Длинные нарды.``), if any."""
    lowered = text.lower()
    for word, key in _VARIANT_WORDS:
        if word in lowered:
            return key
    return None


@dataclass(slots=True)
class Header:
    """The lines before the move table, read one at a time."""

    title: str | None = None
    lines: list[str] = field(default_factory=list)
    opening: list[tuple[int, int]] = field(default_factory=list)
    autodoubles: int = 0
    first: str | None = None

    def read(self, line: str) -> None:
        """Take what a header line says: title, an opening roll (doubles are automatic
        doubles when the line says so), or who moves first."""
        if self.title is None and _TITLE.search(line):
            self.title = line.strip().replace("*", "")
        self.lines.append(line)
        found = _OPENING.search(line)
        if found:
            roll = (int(found.group(1)), int(found.group(2)))
            self.opening.append(roll)
            if roll[0] == roll[1] and _AUTODOUBLE.search(line):
                self.autodoubles += 1
            elif roll[0] != roll[1]:
                self.first = "white" if roll[0] > roll[1] else "black"
        elif _AUTODOUBLE.search(line) and not self.opening:
            self.autodoubles += 1
        said = _FIRST.search(line)
        if said and self.first is None:
            self.first = "white" if said.group("w") else "black"

    def variant(self) -> str | None:
        """The game the title names, else the one the other header lines name."""
        return detect_variant(self.title or "") or detect_variant("\n".join(self.lines))


def detect_numbering(events: list[Event]) -> str | None:
    """The one numbering the printed labels fit (the first 200 or so), or None if they fit
    both or neither."""
    labels: list[str] = []
    for event in events:
        if isinstance(event, PlayEvent) and event.ply is not None:
            for chain in event.ply.chains:
                labels.extend([label for label in chain.path if label not in (BAR, OFF)])
        elif isinstance(event, CheckpointEvent):
            labels.extend(label for label, _ in event.white + event.black if label != "bar")
        if len(labels) > 200:
            break
    candidates = numbering_of(list(dict.fromkeys(labels)))  # each distinct label once
    return next(iter(candidates)) if len(candidates) == 1 else None
