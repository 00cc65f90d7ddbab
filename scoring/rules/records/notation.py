"""The book's move notation (ch7, Part 6): one side's entry in a record, parsed and printed.

A referee types what is printed in the book, so the parser accepts every spelling
the book uses (en dash or hyphen in dice, ``Ø``/``∅``, ``Bar``/``бар``,
``off``/``двор``, ``(Pass 6)``/``P6``, cube marks ``D4x``/``D4``/``B32x``/``AD2``,
``– (Pass!)``) and reports anything else as a :class:`Problem` that quotes the
text and the character where reading stopped, the way a PGN reader points at a
bad SAN token.

Point labels stay *labels* here (``"7"``, ``"07"``, ``"24"``, ``"bar"``,
``"off"``): what a label means depends on the variant and the numbering, which
only the whole record knows, so the translation to board points happens in
:mod:`scoring.rules.records.replay`.  This keeps the notation round-trippable:
``parse_ply(format_ply(p)) == p``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from scoring.rules.errors import Problem
from scoring.rules.problems.record import RECORD

BAR = "bar"
OFF = "off"

Mark = Literal["?", "??", "!", "!!", "?!", "!?", "="]
MARKS: tuple[str, ...] = ("??", "!!", "?!", "!?", "?", "!", "=")

CubeKind = Literal["offer", "take", "beaver", "raccoon", "drop", "auto"]


class Chain(NamedTuple):
    """One checker's printed route, ``012/10/8*`` — ``repeat`` checkers take it (``(2)``).

    ``hits[i]`` says whether ``path[i]`` was printed with ``*``; the first label
    is where the checker starts and never carries a hit. A chain has a start, at
    least one landing and a hit flag per label: the readers that build chains
    (:func:`_read_chain`, :func:`_fast_ply`, the .mat reader) refuse anything else
    with a located problem, so the type does not check it again on this hot path.
    A named tuple, like :class:`~scoring.rules.board.position.Position`: a plain cell builds
    several per line, and a tuple is built several times faster than a frozen dataclass.
    """

    path: tuple[str, ...]
    hits: tuple[bool, ...]
    repeat: int = 1
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A doubling-cube mark: ``D4x`` offer, ``D4`` take, ``B8x`` beaver, ``AD2`` automatic.

    ``value`` is the cube face after the action (``None`` for a drop, which
    leaves the cube where it was).
    """

    kind: CubeKind
    value: int | None = None


class Ply(NamedTuple):
    """Everything one side did in one column cell: cube marks, the roll and the play.

    ``dice`` is ``None`` when no roll is printed (a cube-only cell, or
    ``no_roll`` — the book's ``— ∅`` for a side that could not even roll usefully
    because every entry point was closed).  ``passed`` is the ``Ø`` sign, alone
    or after a partial play.  ``pass_remarks`` keeps ``(Pass 6)``/``P6``, the die
    that could not be played.  ``comment`` is free text after the play
    (``2/08. Чярдар (08...011).``), kept so nothing printed is lost.  ``alternatives``
    are the plays a cell names in brackets as not played (``(или 24/13)``, ``(or …)``,
    ``(лучше …)``): kept as text, checked by the replay and reported as a note only.
    ``remarks`` are any other bracketed words (``(форсированно)``), kept as annotations.
    """

    dice: tuple[int, int] | None = None
    chains: tuple[Chain, ...] = ()
    passed: bool = False
    no_roll: bool = False
    cube: tuple[CubeAction, ...] = ()
    pass_remarks: tuple[int, ...] = ()
    mark: str | None = None
    comment: str | None = None
    alternatives: tuple[str, ...] = ()
    remarks: tuple[str, ...] = ()

    @property
    def is_play(self) -> bool:
        """True when the cell records a turn at the board (a roll, a pass or a no-roll)."""
        return self.dice is not None or self.no_roll or bool(self.chains) or self.passed

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label for chain in self.chains for label in chain.path)


class NotationError(ValueError):
    """Raised by :func:`parse_ply` with the :class:`Problem` describing where reading stopped."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.message("en"))


# --------------------------------------------------------------------------- lexing

_DASHES = "-–—−"
_EMPTY_SET = "Øø∅"
_BLANKS = " \t\u00a0"
_WS = re.compile(rf"[{_BLANKS}]*")
_DICE = re.compile(rf"([0-9])\s*[{_DASHES}]\s*([0-9])(?![0-9/])")
_NO_ROLL = re.compile(rf"[{_DASHES}]\s*[{_EMPTY_SET}]")
_DROP = re.compile(
    rf"(?:[{_DASHES}]\s*)?(?:\(\s*(?:pass|пас|drops?)\s*!?\s*\)|(?:pass|пас|drops?)!?(?![\w ]*\d))",
    re.IGNORECASE,
)
_CUBE = re.compile(
    r"(?:(?P<auto>AD)(?P<aval>\d+)"
    r"|(?P<letter>[DBR])(?P<val>\d+)(?P<x>[xXхХ])?"
    r"|(?P<bare>\d+)[xXхХ]"
    r"|(?:double|dbl|удвоение|давэ)\s+(?:to|до)\s+(?P<word>\d+))(?![\w/])",
    re.IGNORECASE,
)
_LABEL = re.compile(r"(?P<bar>bar|бар|борт)|(?P<off>off|двор|вывод)|(?P<num>0?\d{1,2})", re.I)
_REPEAT = re.compile(r"\(\s*(\d)\s*\)")
_REMARK = re.compile(r"\(\s*(?:pass|пас)\s+([1-6])\s*\)|(?<![\w/])(?:P|П)([1-6])(?![\w/])", re.I)
_MARK = re.compile(r"\?\?|!!|\?!|!\?|\?|!|=")
#: An annotation mark in brackets, ``(?)``, ``(!)``, ``(?!)`` (Part 6 prints both forms).
_PAREN_MARK = re.compile(r"\(\s*(\?\?|!!|\?!|!\?|\?|!|=)\s*\)")
#: A bracketed alternative: ``(или 24/13)``, ``(or 24/13)``, ``(лучше 24/13)``, ``(better …)``.
_ALT_WORD = re.compile(r"(?:или|либо|or|лучше|better|сильнее)\b[\s:,]*", re.IGNORECASE)


def _problem(
    code: str, text: str, pos: int, *, move: int | None = None, side: str | None = None, **details: object
) -> Problem:
    """A ``record.*`` problem pointing at character ``pos`` of the cell ``text``."""
    return RECORD.problem(code, move=move, side=side, text=text, pos=pos, cell=text, **details)


def _canonical_label(raw: str, text: str, pos: int) -> str:
    low = raw.lower()
    if low in ("bar", "бар", "борт"):
        return BAR
    if low in ("off", "двор", "вывод"):
        return OFF
    if low.startswith("0"):
        value = int(low[1:] or "0")
        if not 1 <= value <= 12:
            raise NotationError(
                _problem("bad_point", text, pos, label=raw, scope="half")
            )
        return f"0{value}"
    value = int(low)
    if not 1 <= value <= 24:
        raise NotationError(
            _problem("bad_point", text, pos, label=raw, scope="range")
        )
    return str(value)


class _Reader:
    """A cursor over one cell's text; every ``expect_*`` failure names the position."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        # The regex only when there is a blank to skip: most calls stand on a sign.
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in _BLANKS:
            self.pos = _WS.match(text, pos).end()  # type: ignore[union-attr]

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= len(self.text)

    def match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in _BLANKS:
            self.pos = pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        found = pattern.match(text, pos)
        if found:
            self.pos = found.end()
        return found

    def peek(self, chars: str) -> bool:
        self.skip_ws()
        return self.pos < len(self.text) and self.text[self.pos] in chars

    def take_glued(self, chars: str) -> bool:
        """Take one of ``chars`` only if it follows with no space (``8/5*``)."""
        if self.pos < len(self.text) and self.text[self.pos] in chars:
            self.pos += 1
            return True
        return False

    def take(self, chars: str) -> bool:
        start = self.pos
        if self.peek(chars):
            self.pos += 1
            return True
        self.pos = start
        return False


def _cube_action(found: re.Match[str]) -> CubeAction:
    if found["auto"]:
        return CubeAction("auto", int(found["aval"]))
    if found["bare"]:
        return CubeAction("offer", int(found["bare"]))
    if found["word"]:
        return CubeAction("offer", int(found["word"]))
    letter = found["letter"].upper()
    value = int(found["val"])
    if letter == "B":
        return CubeAction("beaver", value)
    if letter == "R":
        return CubeAction("raccoon", value)
    return CubeAction("offer" if found["x"] else "take", value)


def parse_cube_token(text: str) -> CubeAction | None:
    """The cube action if ``text`` is exactly one cube mark (``D8``, ``B32x``, ``(Pass!)``)."""
    stripped = text.strip().rstrip(".")
    found = _CUBE.fullmatch(stripped)
    if found:
        return _cube_action(found)
    if _DROP.fullmatch(stripped):
        return CubeAction("drop")
    return None


def _read_cube(reader: _Reader) -> list[CubeAction]:
    actions: list[CubeAction] = []
    while True:
        start = reader.pos
        found = reader.match(_CUBE)
        if found:
            actions.append(_cube_action(found))
        elif reader.match(_DROP):
            actions.append(CubeAction("drop"))
        else:
            reader.pos = start
            return actions
        reader.take(".,;")


def _read_label(reader: _Reader, reason: str) -> str:
    """One point label at the reader's position, canonical; ``reason`` says what was expected."""
    label_at = reader.pos
    found = reader.match(_LABEL)
    if not found:
        raise NotationError(_problem("unparsable", reader.text, reader.pos, reason=reason))
    return _canonical_label(found.group(0), reader.text, label_at)


class _Notes:
    """Bracketed annotations met while reading one cell (marks, alternatives, remarks)."""

    __slots__ = ("alternatives", "mark", "remarks")

    def __init__(self) -> None:
        self.mark: str | None = None
        self.alternatives: list[str] = []
        self.remarks: list[str] = []


def _read_brackets(reader: _Reader, notes: _Notes) -> bool:
    """Take one bracketed annotation at the reader's position, if there is one.

    ``(?)``/``(!)`` are annotation marks, ``(или …)`` an alternative, anything else in
    balanced brackets that is not a repeat count ``(2)`` or a pass remark ``(Pass 6)`` a
    remark. Returns whether something was taken.
    """
    start = reader.pos
    reader.skip_ws()
    text, pos = reader.text, reader.pos
    if pos >= len(text) or text[pos] != "(" or _REPEAT.match(text, pos) or _REMARK.match(text, pos):
        reader.pos = start
        return False
    if _DROP.match(text, pos):
        reader.pos = start
        return False
    found = _PAREN_MARK.match(text, pos)
    if found:
        if notes.mark is None:
            notes.mark = found.group(1)
        else:
            notes.remarks.append(found.group(1))
        reader.pos = found.end()
        return True
    depth, end = 0, None
    for i in range(pos, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    if end is None:
        reader.pos = start
        return False
    inner = text[pos + 1 : end].strip()
    word = _ALT_WORD.match(inner)
    if word:
        notes.alternatives.extend(
            part.strip() for part in re.split(r"\s*;\s*|\s+(?:или|or)\s+", inner[word.end() :])
            if part.strip()
        )
    elif inner:
        notes.remarks.append(inner)
    reader.pos = end + 1
    return True


#: A word in brackets glued to a point inside a move, ``012(голова)/07`` (ch9): a remark.
_INNER_REMARK = re.compile(r"\(([^()\d/]+)\)(?=/)")


def _inner_remark(reader: _Reader, notes: _Notes | None) -> None:
    """Keep a bracketed word between a point and the next ``/`` as a remark (ch9 prints
    ``012(голова)/07/02/9/4``: the head is named, the move is the same)."""
    if notes is None or reader.pos >= len(reader.text) or reader.text[reader.pos] != "(":
        return
    found = _INNER_REMARK.match(reader.text, reader.pos)
    if found:
        notes.remarks.append(found.group(1).strip())
        reader.pos = found.end()


def _read_chain(reader: _Reader, notes: _Notes | None = None) -> Chain:
    start = reader.pos
    path = [_read_label(reader, "expected_point")]
    hits = [False]
    _inner_remark(reader, notes)
    while reader.take("/"):
        path.append(_read_label(reader, "point_after_slash"))
        hits.append(reader.take_glued("*"))
        _inner_remark(reader, notes)
    if len(path) < 2:
        raise NotationError(
            _problem("unparsable", reader.text, start, reason="from_to")
        )
    repeat = 1
    glued = reader.pos
    rep = reader.match(_REPEAT)
    if rep is None:
        reader.pos = glued
    if rep:
        repeat = int(rep.group(1))
        if not 1 <= repeat <= 4:
            raise NotationError(
                _problem("unparsable", reader.text, rep.start(), reason="repeat", repeat=repeat)
            )
        if reader.take_glued("*") and not hits[-1]:
            # The hit mark after the repeat count (``13/10(2)*``, Part 6) means what
            # ``13/10*(2)`` does: the last landing hits.
            hits[-1] = True
    mark = None
    if reader.pos < len(reader.text) and reader.text[reader.pos] in "?!=":
        found_mark = _MARK.match(reader.text, reader.pos)
        if found_mark:
            mark = found_mark.group(0)
            reader.pos = found_mark.end()
    if notes is not None:
        while _read_brackets(reader, notes):
            if mark is None and notes.mark is not None:
                mark, notes.mark = notes.mark, None
    return Chain(tuple(path), tuple(hits), repeat, mark)


#: A chain that follows the previous one with no comma (``13/7 13/8``, as GNU Backgammon
#: and some printed cells write it): a label glued to a slash, so never prose.
_NEXT_CHAIN = re.compile(r"[ \t]+(?=(?:bar|бар|борт|0?\d{1,2})/)", re.IGNORECASE)


def _read_body(reader: _Reader, notes: _Notes | None = None) -> tuple[list[Chain], bool]:
    chains: list[Chain] = []
    passed = False
    while True:
        if reader.take(_EMPTY_SET):
            passed = True
        else:
            chains.append(_read_chain(reader, notes))
        if not reader.take(","):
            if not passed and _NEXT_CHAIN.match(reader.text, reader.pos):
                continue
            return chains, passed
        if passed:
            raise NotationError(
                _problem("unparsable", reader.text, reader.pos, reason="after_pass")
            )


_FAST_LABEL = r"(?:0?\d{1,2}|[Bb]ar|off)"
_FAST_CHAIN = rf"{_FAST_LABEL}(?:/{_FAST_LABEL})+(?:\([1-4]\))?"
_FAST = re.compile(rf"\s*([1-6])[-–]([1-6]) ({_FAST_CHAIN}(?:, {_FAST_CHAIN})*)\s*")
_FAST_REPEAT = re.compile(r"\(([1-4])\)$")


#: Canonical form of each plain label the fast path has met (``"013"`` → ``"013"``,
#: ``"Bar"`` → ``"bar"``); ``_FAST_LABEL`` admits only a few hundred strings, so this
#: stays small, and a cell's labels are then a dictionary look-up each.
_FAST_CANONICAL: dict[str, str] = {}
_NO_HITS: tuple[tuple[bool, ...], ...] = tuple((False,) * n for n in range(8))

def _fast_ply(text: str) -> Ply | None:
    """The common plain cell (``6–2 13/7, 13/11``) without the general reader (hot path).

    A second, regex-based reader for the one shape most cells have (a roll and plain
    chains, no hits, cube, marks or remarks); anything else returns ``None`` and goes to
    the general :class:`_Reader`, which also says where bad input is. Kept because it is
    measured to pay: ``bench/records.py`` "parse only" reads book game 1 about 1.6×
    faster with it (2040 vs 1250 records/s CPU at commit 735d7c4), and parse + replay
    1.3×. ``tests/core/rules/records/test_notation_fast_path.py`` checks it reads every cell it
    accepts exactly as the general reader does.
    """
    found = _FAST.fullmatch(text)
    if found is None:
        return None
    chains = []
    known = _FAST_CANONICAL
    for part in found.group(3).split(", "):
        repeat = 1
        if part[-1] == ")":
            rep = _FAST_REPEAT.search(part)
            if rep:
                repeat = int(rep.group(1))
                part = part[: rep.start()]
        path = []
        for raw in part.split("/"):
            label = known.get(raw)
            if label is None:
                try:
                    label = _canonical_label(raw, text, 0)
                except NotationError:
                    return None  # let the general reader locate the bad point
                known[raw] = label
            path.append(label)
        n = len(path)
        chains.append(Chain(tuple(path), _NO_HITS[n] if n < 8 else (False,) * n, repeat))
    return Ply((int(found.group(1)), int(found.group(2))), tuple(chains))


def parse_ply(
    text: str, *, move: int | None = None, side: str | None = None, strict: bool = True
) -> Ply:
    """Read one column cell; raise :class:`NotationError` with the position on bad input.

    ``strict=False`` keeps impossible dice such as ``7–2`` in the result instead of
    raising, so a record replayer can report ``bad_dice`` and still follow the
    printed checkers (the misprint is usually in the roll, not in the play).
    """
    fast = _fast_ply(text)
    if fast is not None:
        return fast
    reader = _Reader(text)
    notes = _Notes()
    cube = _read_cube(reader)
    dice: tuple[int, int] | None = None
    no_roll = False
    chains: list[Chain] = []
    passed = False
    if reader.match(_NO_ROLL):
        no_roll = True
    else:
        dice_at = reader.pos
        found = reader.match(_DICE)
        if found:
            dice = (int(found.group(1)), int(found.group(2)))
            if strict and not all(1 <= d <= 6 for d in dice):
                raise NotationError(
                    _problem("bad_dice", text, dice_at, move=move, side=side, dice=found.group(0))
                )
            if not reader.at_end() and (reader.peek(_EMPTY_SET) or _LABEL.match(text, reader.pos)):
                chains, passed = _read_body(reader, notes)
        elif not reader.at_end() and (reader.peek(_EMPTY_SET) or _LABEL.match(text, reader.pos)):
            # The book prints fragments such as "8/5, Ø" without the roll; keep them readable
            # and let the replay say that the dice are missing.
            chains, passed = _read_body(reader, notes)
    remarks: list[int] = []
    mark = None
    while True:
        found_remark = reader.match(_REMARK)
        if found_remark:
            remarks.append(int(found_remark.group(1) or found_remark.group(2)))
            continue
        start = reader.pos
        found_mark = reader.match(_MARK)
        if found_mark and mark is None:
            mark = found_mark.group(0)
            continue
        reader.pos = start
        if _read_brackets(reader, notes):
            if mark is None and notes.mark is not None:
                mark, notes.mark = notes.mark, None
            continue
        break
    trailing_cube = _read_cube(reader)
    comment = None
    if not reader.at_end():
        rest = text[reader.pos :]
        first_word = rest.split(None, 1)[0]
        if rest[0] in ".;" and reader.pos > 0:
            comment = rest[1:].strip() or None
        elif (
            reader.pos > 0
            and text[reader.pos - 1] in " \t.,;"
            and first_word[0].isalpha()
            and not any(ch.isdigit() or ch == "/" for ch in first_word)
        ):
            comment = rest.strip()
        else:
            raise NotationError(
                _problem(
                    "unparsable",
                    text,
                    reader.pos,
                    move=move,
                    side=side,
                    reason="unexpected",
                    snippet=text[reader.pos : reader.pos + 12],
                )
            )
    return Ply(
        dice=dice,
        chains=tuple(chains),
        passed=passed,
        no_roll=no_roll,
        cube=tuple(cube) + tuple(trailing_cube),
        pass_remarks=tuple(remarks),
        mark=mark,
        comment=comment,
        alternatives=tuple(notes.alternatives),
        remarks=tuple(notes.remarks) + ((notes.mark,) if notes.mark else ()),
    )


#: Characters no part of a cell can start with: letters that open none of the reader's
#: patterns (cube marks ``AD``/``D``/``B``/``R``/``double``/``удвоение``/``давэ``, drops
#: ``pass``/``пас``/``drop``, points ``bar``/``бар``/``борт``/``off``/``двор``/``вывод``,
#: remarks ``P6``/``П6``), even ignoring case, and opening quotes. Plain ASCII and Russian
#: letters only: case-insensitive matching pairs a few rarer letters with those above.
_PROSE_FIRST = frozenset(
    "cefghijklmnqstuvwxyz"
    "CEFGHIJKLMNQSTUVWXYZ"
    "агеёжзийклмнрстфхцчшщъыьэюя"
    "АГЕЁЖЗИЙКЛМНРСТФХЦЧШЩЪЫЬЭЮЯ"
    '“«"'
)


def starts_as_prose(text: str) -> bool:
    """True when :func:`parse_ply` must fail at the first character (a commentary line).

    Lets a record reader tell prose from a cell without running the general reader over
    a long sentence; the answer is the reader's own (it finds nothing to start with).
    """
    return text[:1] in _PROSE_FIRST


def try_parse_ply(
    text: str, *, move: int | None = None, side: str | None = None, strict: bool = True
) -> tuple[Ply | None, Problem | None]:
    """:func:`parse_ply` that returns the problem (located at ``move``/``side``) instead."""
    try:
        return parse_ply(text, move=move, side=side, strict=strict), None
    except NotationError as exc:
        p = exc.problem
        return None, replace(p, move=move, side=side)


# --------------------------------------------------------------------------- formatting

_WORDS = {
    "en": {BAR: "Bar", OFF: "off", "pass": "Pass", "drop": "– (Pass!)"},
    "ru": {BAR: "бар", OFF: "двор", "pass": "Пас", "drop": "– (Пас!)"},
}


def format_label(label: str, lang: str = "en") -> str:
    words = _WORDS["ru" if lang.startswith("ru") else "en"]
    return words.get(label, label)


def format_cube(action: CubeAction, lang: str = "en") -> str:
    if action.kind == "drop":
        return _WORDS["ru" if lang.startswith("ru") else "en"]["drop"]
    prefix = {"offer": "D", "take": "D", "beaver": "B", "raccoon": "R", "auto": "AD"}[action.kind]
    suffix = "x" if action.kind in ("offer", "beaver", "raccoon") else ""
    return f"{prefix}{action.value}{suffix}"


def format_chain(chain: Chain, lang: str = "en") -> str:
    parts = [format_label(chain.path[0], lang)]
    for label, hit in zip(chain.path[1:], chain.hits[1:], strict=True):
        parts.append(format_label(label, lang) + ("*" if hit else ""))
    text = "/".join(parts)
    if chain.repeat != 1:
        text += f"({chain.repeat})"
    return text + (chain.mark or "")


def format_ply(ply: Ply, lang: str = "en") -> str:
    """Print a cell the way the book does: ``D8. 6–5 13/7*, 13/8!, Ø (Pass 5)``."""
    out: list[str] = []
    leading = [a for a in ply.cube if a.kind != "drop"]
    drops = [a for a in ply.cube if a.kind == "drop"]
    if leading:
        out.append(". ".join(format_cube(a, lang) for a in leading) + ("." if ply.is_play else ""))
    if ply.no_roll:
        out.append("— ∅")
    elif ply.dice is not None:
        body = [format_chain(c, lang) for c in ply.chains]
        if ply.passed:
            body.append("Ø")
        roll = f"{ply.dice[0]}–{ply.dice[1]}"
        out.append(f"{roll} {', '.join(body)}" if body else roll)
    elif ply.passed:
        out.append("Ø")
    word = _WORDS["ru" if lang.startswith("ru") else "en"]["pass"]
    out.extend(f"({word} {die})" for die in ply.pass_remarks)
    if ply.mark:
        out.append(ply.mark)
    either = "или" if lang.startswith("ru") else "or"
    out.extend(f"({either} {alternative})" for alternative in ply.alternatives)
    out.extend(f"({remark})" for remark in ply.remarks)
    out.extend(format_cube(a, lang) for a in drops)
    text = " ".join(out)
    if ply.comment:
        text += f". {ply.comment}"
    return text


def numbering_of(labels: tuple[str, ...] | list[str]) -> set[str]:
    """Which numberings the labels could belong to: ``0N`` is traditional, 13…24 through."""
    traditional = any(label.startswith("0") for label in labels)
    through = any(
        label.isdigit() and not label.startswith("0") and int(label) > 12 for label in labels
    )
    if traditional and not through:
        return {"traditional"}
    if through and not traditional:
        return {"through"}
    if through and traditional:
        return set()
    return {"traditional", "through"}
