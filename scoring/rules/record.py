"""Whole game records as the book prints them (Part 6), read and replayed move by move.

Reading (:func:`parse_record`) turns the text into a :class:`Record`: the title and
the game it names, the opening-roll lines (with automatic doubles), and a flat list of
events in playing order — each side's cell under a move number (tab-separated
columns, ``...`` continuations, a cell may carry ``или``/``or`` alternatives),
cube marks (also those that open or close a commentary line, ``D8X. Игрок белыми…``),
checkpoint lines (``Проверочная позиция. Белые: …; чёрные: …``, possibly broken over
a page) and the commentary itself.  Nothing printed is dropped.

Replaying (:func:`replay`) walks the events on the rules core
(:func:`scoring.rules.moves.check_play`, :mod:`scoring.rules.cube`) and reports every
problem with its move number, side, printed text and a specific reason.  After a
misprint the replay continues with the play as printed when the checkers it names
exist (the intent is clear even if the dice or a rule are wrong), and a checkpoint that
disagrees with the board is reported point by point and then *becomes* the board, so
one misprint does not bury the rest of the record under follow-on errors.  The rules
are never relaxed to make a record pass.

Why a flat event list rather than a tree of moves: records are linear (alternatives are
kept as text and never replayed) and the .mat reader (:mod:`scoring.rules.matfile`)
produces the same events, so both formats share one replayer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.board import (
    BLACK,
    SIDE_NAMES,
    WHITE,
    Position,
    game_result,
    is_game_over,
    label_to_index,
)
from scoring.rules.cube import CubeRules, CubeState
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.moves import (
    Step,
    check_play,
    has_legal_move,
    legal_plays,
    play_unchecked,
)
from scoring.rules.notation import (
    BAR,
    OFF,
    CubeAction,
    Ply,
    _fast_ply,
    format_ply,
    numbering_of,
    parse_cube_token,
    starts_as_prose,
    try_parse_ply,
)
from scoring.rules.record_problems import RECORD
from scoring.rules.variants import VARIANTS, get_variant

SIDES = ("white", "black")
SIDES_RU = ("белые", "чёрные")
SIDES_RU_GEN = ("белых", "чёрных")

#: Codes the record layer itself reports (the rules core adds those of ``PROBLEM_CODES``
#: and :mod:`scoring.rules.cube`).
RECORD_CODES: dict[str, str] = {
    "unparsable": "a cell or line cannot be read as the book's notation",
    "bad_point": "a point label that does not exist in the record's numbering",
    "bad_dice": "a die outside 1…6",
    "missing_dice": "a play printed without its roll",
    "opening_roll_mismatch": "the first play's dice differ from the opening roll",
    "out_of_turn": "a side plays twice in a row (the other side's move is missing)",
    "move_number_mismatch": "the printed move number is not the next one",
    "moves_after_game_end": "something is printed after the game has ended",
    "checkpoint_mismatch": "a checkpoint position differs from the replayed board",
    "cube_wrong_value": "a cube mark names a value other than the next one",
    "double_out_of_turn": "a double offered by the side not on roll",
    "result_mismatch": "the result printed differs from the one the replay derives",
}


#: ``{(numbering, side, geometry): {label: index}}``, filled as labels are converted: a
#: record names the same few dozen points again and again, and the conversion (string
#: checks, ``int``, the opposite-side table) costs more than the rest of a step. Only short
#: labels are kept, so the tables stay bounded whatever text is fed in.
_LABEL_INDEX: dict[tuple[str, str, str], dict[str, int]] = {}




def _side_index(side: str) -> int:
    return WHITE if side == "white" else BLACK


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


def record_problem(
    code: str,
    *,
    move: int | None = None,
    side: str | None = None,
    text: str | None = None,
    game: int | None = None,
    **details: Any,
) -> Problem:
    """The ``record.<code>`` problem at a place in a record (words in :mod:`record_problems`)."""
    return RECORD.problem(code, move=move, side=side, game=game, text=text, **details)


def locate(problem: Problem, *, move: int | None, side: str | None, text: str | None) -> Problem:
    """Attach the record position to a problem raised by the rules core (which has none)."""
    return replace(problem, move=move, side=side, text=text)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """One side's turn at the board as printed (``ply`` is None when unreadable).

    ``numbering`` overrides the record's numbering for this event (the .mat reader uses
    ``"own"``: each side's own 1…24, bar 25, off 0).
    """

    move: int
    side: str
    text: str
    ply: Ply | None
    line: int = 0
    problem: Problem | None = None
    alternatives: tuple[str, ...] = ()
    numbering: str | None = None


@dataclass(frozen=True, slots=True)
class CubeEvent:
    """A cube mark; ``side`` is None when it comes from commentary (inferred at replay)."""

    actions: tuple[CubeAction, ...]
    side: str | None
    move: int | None
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class CheckpointEvent:
    """A position printed for verification, as ``label -> count`` per side."""

    white: tuple[tuple[str, int], ...]
    black: tuple[tuple[str, int], ...]
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class CommentEvent:
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class ClaimEvent:
    """A result the source states (``Wins 2 points`` in .mat); compared with the replay."""

    side: str
    points: int
    text: str
    line: int = 0


Event = PlayEvent | CubeEvent | CheckpointEvent | CommentEvent | ClaimEvent


@dataclass(slots=True)
class Record:
    """A parsed record: what game, which numbering, who starts, and the events in order."""

    variant: str
    numbering: str
    first: str = "white"
    title: str | None = None
    opening: list[tuple[int, int]] = field(default_factory=list)
    autodoubles: int = 0
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    variant_detected: bool = False
    numbering_detected: bool = False
    cube_rules: CubeRules = field(
        default_factory=lambda: CubeRules(beaver=True, raccoon=True, autodoubles=None)
    )
    game: int | None = None

    @property
    def plays(self) -> list[PlayEvent]:
        return [e for e in self.events if isinstance(e, PlayEvent)]


# --------------------------------------------------------------------------- reading

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

_MOVE_NO = re.compile(r"^\s*(\d{1,3})\s*\.?\s*$")
_INLINE_ROW = re.compile(r"^\s*(\d{1,3})\.\s+(.*)$")
_HEADER_ROW = re.compile(r"(№\s*хода|^\s*move\b|^\s*#)", re.IGNORECASE)
_WHITE_WORD = re.compile(r"бел|white", re.IGNORECASE)
_BLACK_WORD = re.compile(r"ч[её]рн|black", re.IGNORECASE)
_OPENING = re.compile(
    r"(?:белые|white)\s*:\s*([0-9])\s*\.?\s*(?:ч[её]рные|black)\s*:\s*([0-9])", re.IGNORECASE
)
_AUTODOUBLE = re.compile(r"автодубль|autodoubl|automatic double|\bAD\d+\b", re.IGNORECASE)
_FIRST = re.compile(
    r"(?P<w>белые ходят первыми|white (?:moves|plays|goes) first)"
    r"|(?P<b>ч[её]рные ходят первыми|black (?:moves|plays|goes) first)",
    re.IGNORECASE,
)
_CHECK_WHITE = re.compile(r"(?:белые|white)[^:;]{0,40}:", re.IGNORECASE)
_CHECK_BLACK = re.compile(r"(?:ч[её]рные|black)[^:;]{0,40}:", re.IGNORECASE)
_CHECK_ITEM = re.compile(r"(?<![\w/])(0?\d{1,2}|bar|бар)\s*\(\s*(\d{1,2})\s*\)", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"\s+(?:или|or)\s+", re.IGNORECASE)
_DICE_START = re.compile(r"(?<![\d/])[0-9]\s*[-–—−]\s*[0-9](?![\d/])|[-–—−]\s*[Øø∅]|(?<!\w)Ø")


def detect_variant(text: str) -> str | None:
    """The game a record's title names (``Партия №4. Длинные нарды.``), if any."""
    lowered = text.lower()
    for word, key in _VARIANT_WORDS:
        if word in lowered:
            return key
    return None


def _checkpoint_items(segment: str) -> tuple[tuple[str, int], ...]:
    items: dict[str, int] = {}
    for label, count in _CHECK_ITEM.findall(segment):
        key = "bar" if label.lower() in ("bar", "бар") else label
        items[key] = items.get(key, 0) + int(count)
    return tuple(items.items())


def _parse_checkpoint(text: str, line: int) -> CheckpointEvent | None:
    white = _CHECK_WHITE.search(text)
    black = _CHECK_BLACK.search(text, white.end() if white else 0)
    if not white or not black:
        return None
    white_items = _checkpoint_items(text[white.end() : black.start()])
    black_items = _checkpoint_items(text[black.end() :])
    if not white_items and not black_items:
        return None
    return CheckpointEvent(white_items, black_items, text.strip(), line)


def _cells_of_inline(rest: str) -> list[str]:
    """Split ``6–5 01/07/012 3–3 012/10/7(2);`` (chess-style, one line) into two cells."""
    rest = rest.strip().rstrip(";")
    starts = [m.start() for m in _DICE_START.finditer(rest)]
    if rest.startswith("..."):
        tail = rest[3:].strip()
        return ["...", tail]
    if len(starts) >= 2:
        return [rest[: starts[1]].strip().rstrip(","), rest[starts[1] :].strip()]
    return [rest, ""]


def _commentary_cube(
    text: str, lenient: dict[str, tuple[Ply | None, Problem | None]] | None = None
) -> tuple[CubeAction, ...]:
    """Cube marks that open a commentary line, and one that closes it (``… принято. D8``).

    ``lenient`` holds ``try_parse_ply(text, strict=False)`` results already computed
    for this text (by :func:`_is_cell`): the strict reading differs only by refusing
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


def _is_cell(
    text: str, lenient: dict[str, tuple[Ply | None, Problem | None]] | None = None
) -> bool:
    if starts_as_prose(text):
        return False  # unreadable as a cell, and no roll to flag it as a broken one
    ply, problem = try_parse_ply(text, strict=False)
    if lenient is not None:
        lenient[text] = (ply, problem)
    if problem is not None:
        return bool(_DICE_START.match(text.strip()))
    return ply is not None and ply.comment is None or (ply is not None and ply.is_play)


def parse_record(
    text: str,
    *,
    variant: str | None = None,
    numbering: str | None = None,
) -> Record:
    """Read a book-style record; ``variant``/``numbering`` override what the text says."""
    lines = text.splitlines()
    title = None
    header_text: list[str] = []
    events: list[Event] = []
    problems: list[Problem] = []
    opening: list[tuple[int, int]] = []
    autodoubles = 0
    first: str | None = None
    column_sides: tuple[str, str] | None = None
    in_table = False
    current_move = 0
    pending_check: tuple[str, int] | None = None
    lenient: dict[str, tuple[Ply | None, Problem | None]] = {}  # see _commentary_cube

    def add_comment(body: str, line_no: int) -> None:
        nonlocal pending_check
        if pending_check is not None:
            joined = f"{pending_check[0]} {body}"
            event = _parse_checkpoint(joined, pending_check[1])
            if event is not None and _CHECK_BLACK.search(joined):
                events.append(event)
                pending_check = None
                return
            pending_check = (joined, pending_check[1])
            if len(joined) > 1500:
                events.append(CommentEvent(joined, pending_check[1]))
                pending_check = None
            return
        cube = _commentary_cube(body, lenient)
        if cube:
            events.append(CubeEvent(cube, None, None, body, line_no))
            events.append(CommentEvent(body, line_no))
            return
        looks_like_check = bool(_CHECK_WHITE.search(body)) and bool(_CHECK_ITEM.search(body))
        if looks_like_check:
            event = _parse_checkpoint(body, line_no)
            if event is not None:
                events.append(event)
                events.append(CommentEvent(body, line_no))
                return
            pending_check = (body, line_no)
            return
        events.append(CommentEvent(body, line_no))

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        parts = line.split("\t")
        if not in_table:
            if _HEADER_ROW.search(parts[0]) and len(parts) >= 3:
                in_table = True
                w = next((i for i, p in enumerate(parts) if _WHITE_WORD.search(p)), 1)
                b = next((i for i, p in enumerate(parts) if _BLACK_WORD.search(p)), 2)
                column_sides = ("white", "black") if w <= b else ("black", "white")
                continue
            if _INLINE_ROW.match(line) and _DICE_START.search(line):
                in_table = True
            else:
                if title is None and re.search(r"парти[яи]\s*№|^game\b", line, re.IGNORECASE):
                    title = line.strip().replace("*", "")
                header_text.append(line)
                found = _OPENING.search(line)
                if found:
                    roll = (int(found.group(1)), int(found.group(2)))
                    opening.append(roll)
                    if roll[0] == roll[1] and _AUTODOUBLE.search(line):
                        autodoubles += 1
                    elif roll[0] != roll[1]:
                        first = "white" if roll[0] > roll[1] else "black"
                elif _AUTODOUBLE.search(line) and not opening:
                    autodoubles += 1
                said = _FIRST.search(line)
                if said and first is None:
                    first = "white" if said.group("w") else "black"
                continue
        # ---- table body
        if len(parts) >= 2:
            number_cell = parts[0].strip()
            cells = [p.strip() for p in parts[1:3]] + [""] * (3 - len(parts[1:3]) - 1)
        else:
            inline = _INLINE_ROW.match(line)
            if inline:
                number_cell = inline.group(1)
                cells = _cells_of_inline(inline.group(2))
            else:
                number_cell, cells = "", [line.strip(), ""]
        numbered = _MOVE_NO.match(number_cell)
        filled = [c for c in cells if c]
        if not numbered and number_cell:
            # Text in the number column: a comment or a checkpoint spanning the row.
            add_comment(" ".join([number_cell, *filled]).strip(), number)
            continue
        if not numbered and len(filled) == 1 and not _is_cell(filled[0], lenient):
            add_comment(filled[0], number)
            continue
        if not filled:
            continue
        if pending_check is not None:
            events.append(CommentEvent(pending_check[0], pending_check[1]))
            pending_check = None
        if numbered:
            current_move = int(numbered.group(1))
        sides = column_sides or ("white", "black")
        if first is not None and column_sides is None:
            sides = (first, _other(first))
        for side, cell in zip(sides, cells, strict=False):
            if not cell or cell.strip(" .…") == "":
                continue
            fast = _fast_ply(cell)
            if fast is not None:
                # A plain play (``6–2 13/7, 13/11``): no alternative, cube or remark can be
                # in it, so it is read at once (most cells of a record).
                events.append(PlayEvent(current_move, side, cell, fast, number))
                continue
            main, *alternatives = _ALTERNATIVE.split(cell)
            ply, problem = try_parse_ply(main, move=current_move, side=side, strict=False)
            if ply is not None and not ply.is_play:
                events.append(CubeEvent(ply.cube, side, current_move, main, number))
                continue
            events.append(
                PlayEvent(current_move, side, main, ply, number, problem, tuple(alternatives))
            )
    if pending_check is not None:
        events.append(CommentEvent(pending_check[0], pending_check[1]))

    head = "\n".join(header_text)
    detected = detect_variant(title or "") or detect_variant(head)
    chosen_variant = variant or detected or "backgammon"
    get_variant(chosen_variant)
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
    numbering_detected = len(candidates) == 1
    chosen_numbering = numbering or (
        next(iter(candidates)) if numbering_detected else "traditional"
    )
    if first is None:
        first = column_sides[0] if column_sides else "white"
    return Record(
        variant=chosen_variant,
        numbering=chosen_numbering,
        first=first,
        title=title,
        opening=opening,
        autodoubles=autodoubles,
        events=events,
        problems=problems,
        variant_detected=variant is None and detected is not None,
        numbering_detected=numbering is None and numbering_detected,
    )


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    """One checkpoint: after which move it stands, whether it matched, and what differs.

    ``diff`` is ``{"white": {label: {"expected": n, "actual": m}}, "black": {...}}`` with
    only the differing points, labelled in the record's numbering.
    """

    move: int | None
    side: str | None
    ok: bool
    diff: dict[str, dict[str, dict[str, int]]]
    text: str = ""
    line: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"move": self.move, "side": self.side, "ok": self.ok, "diff": self.diff}


@dataclass(frozen=True, slots=True)
class RecordResult:
    """How the game ended: winner, kind (a key of the scoring table), cube and points."""

    winner: str
    kind: str
    cube: int
    points: int
    by_drop: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "kind": self.kind, "cube": self.cube, "points": self.points}


@dataclass(slots=True)
class ReplayReport:
    """Everything the replay found; ``ok`` when there is no error and every checkpoint holds."""

    variant: str
    numbering: str
    errors: list[Problem]
    checkpoints: list[CheckpointReport]
    result: RecordResult | None
    position: Position
    plays: int = 0
    positions: list[Position] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and all(c.ok for c in self.checkpoints)

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """The JSON shape of ``manage.py validate_record --json``."""
        return {
            "ok": self.ok,
            "variant": self.variant,
            "errors": [
                {
                    "move": p.move,
                    "side": p.side,
                    "code": p.code,
                    "message": p.message(language),
                }
                for p in self.errors
            ],
            "checkpoints": [c.as_dict() for c in self.checkpoints],
            "result": self.result.as_dict() if self.result else None,
        }


_ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


class Replayer:
    """The replay state machine; :func:`replay` drives it over a :class:`Record`.

    Kept public so the .mat reader can feed it a game at a time with its own cube rules.
    """

    def __init__(self, record: Record, *, keep_positions: bool = False):
        self.record = record
        self.rules = get_variant(record.variant)
        self.numbering = record.numbering
        self.position = Position.start(record.variant, _side_index(record.first))
        self.cube = CubeState.start(record.cube_rules)
        self.errors: list[Problem] = list(record.problems)
        self.checkpoints: list[CheckpointReport] = []
        self.turn = record.first
        self.expected_move = 1
        self.last: tuple[int, str] | None = None
        self.ended = False
        self.plays = 0
        self.moves_done = {"white": 0, "black": 0}
        self.claim: ClaimEvent | None = None
        self.keep_positions = keep_positions
        self.positions: list[Position] = []
        self.game = record.game
        #: What happened, in order, with the side resolved: ``(side, kind, payload)`` where
        #: kind is "play" (payload: the event), or a cube kind (payload: the value).
        self.trace: list[tuple[str, str, Any]] = []

    # -- helpers ----------------------------------------------------------------------

    def error(self, code: str, **kw: Any) -> None:
        self.errors.append(record_problem(code, game=self.game, **kw))

    def _index(self, label: str, side: str, numbering: str) -> int:
        if label == BAR:
            return 25
        if label == OFF:
            return 0
        if numbering == "own":
            value = int(label)
            if not 0 <= value <= 25:
                raise ValueError(label)
            return value
        return label_to_index(label, _side_index(side), numbering, self.rules.geometry)

    def _cached_index(self, label: str, side: str, numbering: str) -> int:
        """:meth:`_index` through the :data:`_LABEL_INDEX` memo."""
        table = _LABEL_INDEX.setdefault((numbering, side, self.rules.geometry), {})
        index = table.get(label)
        if index is None:
            index = self._index(label, side, numbering)
            if len(label) <= 3:
                table[label] = index
        return index

    def _steps(self, ply: Ply, side: str, numbering: str) -> list[Step]:
        table = _LABEL_INDEX.setdefault((numbering, side, self.rules.geometry), {})
        steps: list[Step] = []
        for chain in ply.chains:
            indices = []
            for label in chain.path:
                index = table.get(label)
                if index is None:
                    index = self._index(label, side, numbering)
                    if len(label) <= 3:
                        table[label] = index
                indices.append(index)
            hits = chain.hits
            one = [
                Step(indices[i - 1], indices[i], True if hits[i] else None, 0)
                for i in range(1, len(indices))
            ]
            steps.extend(one * chain.repeat)  # steps are immutable, so sharing them is safe
        return steps

    def _advance(self, side: str, move: int) -> None:
        self.last = (move, side)
        self.turn = _other(side)
        self.moves_done[side] += 1
        self.expected_move = move + 1 if self.turn == self.record.first else move

    def _finished(self) -> bool:
        return self.ended or self.cube.is_over or is_game_over(self.position)

    # -- events -----------------------------------------------------------------------

    def opening(self) -> None:
        for _ in range(self.record.autodoubles):
            try:
                self.cube = self.cube.autodouble()
            except RuleViolation as exc:
                for p in exc.problems:
                    self.errors.append(replace(p, game=self.game))

    def play(self, event: PlayEvent) -> None:
        where = {"move": event.move, "side": event.side, "text": event.text}
        if self._finished():
            self.error("moves_after_game_end", after_end_cube=False, **where)
            self._advance(event.side, event.move)
            return
        if event.problem is not None:
            self.errors.append(replace(event.problem, game=self.game))
        if self.cube.pending is not None:
            self._settle_offer(event)
        self.trace.append((event.side, "play", event))
        if event.side != self.turn:
            missing = self.turn
            self.error("out_of_turn", missing=missing, **where)
            self.turn = event.side
        elif event.move != self.expected_move and event.numbering != "own":
            self.error(
                "move_number_mismatch", printed=event.move, expected=self.expected_move, **where
            )
        ply = event.ply
        position = self.position
        if position.turn != (turn := _side_index(event.side)):
            position = position.with_turn(turn)
        if ply is None:
            self.position = position.passed()
            self._advance(event.side, event.move)
            return
        if self.plays == 0 and self.record.opening and ply.dice is not None:
            last_roll = self.record.opening[-1]
            if sorted(ply.dice) != sorted(last_roll) and last_roll[0] != last_roll[1]:
                self.error(
                    "opening_roll_mismatch",
                    opening=f"{last_roll[0]}–{last_roll[1]}",
                    dice=f"{ply.dice[0]}–{ply.dice[1]}",
                    **where,
                )
        numbering = event.numbering or self.numbering
        try:
            steps = self._steps(ply, event.side, numbering)
        except ValueError:
            bad = next(
                (label for label in ply.labels if not self._label_ok(label, event.side, numbering)),
                "?",
            )
            self.error("bad_point", label=bad, scope="numbering", numbering=numbering, **where)
            self.position = position.passed()
            self._advance(event.side, event.move)
            return
        self.plays += 1
        if ply.no_roll:
            self._no_roll(position, event, where)
        elif ply.dice is None:
            self.error("missing_dice", **where)
            self._apply_unchecked(position, steps, event)
        elif not all([1 <= d <= 6 for d in ply.dice]):
            self.error("bad_dice", dice=f"{ply.dice[0]}–{ply.dice[1]}", **where)
            self._apply_unchecked(position, steps, event)
        else:
            if (
                check := check_play(position, ply.dice, steps, numbering=_msg_numbering(numbering))
            ).ok:
                self.position = check.position  # type: ignore[assignment]
            else:
                inferred = self._apply_unchecked(position, steps, event)
                for n, problem in enumerate(check.problems):
                    located = replace(locate(problem, **where), game=self.game)
                    if n == 0 and inferred is not None:
                        play = self._describe(position, inferred, event.side)
                        located = replace(located, details={**located.details, "inferred": play})
                    self.errors.append(located)
        if self.keep_positions:
            self.positions.append(self.position)
        self._advance(event.side, event.move)

    def _label_ok(self, label: str, side: str, numbering: str) -> bool:
        try:
            self._index(label, side, numbering)
        except ValueError:
            return False
        return True

    def _no_roll(self, position: Position, event: PlayEvent, where: dict[str, Any]) -> None:
        possible = [roll for roll in _ALL_ROLLS if has_legal_move(position, roll)]
        if possible:
            roll = possible[0]
            self.error(
                "pass_while_move_exists",
                no_roll=True,
                roll=f"{roll[0]}–{roll[1]}",
                more=len(possible) - 1,
                **where,
            )
        self.position = position.passed()

    def _apply_unchecked(
        self, position: Position, steps: list[Step], event: PlayEvent
    ) -> Position | None:
        """Follow the printed play past a misprint; returns the play the replay inferred.

        When every printed step is physically possible (the checker is there, it moves
        forward, the landing point is open) the misprint is taken to be in the roll or a
        rule, and the play stands as printed. Otherwise the printed text itself is wrong
        (``5/11`` for ``5/011``, ``06/off`` from an empty point), and the replay goes on
        with the legal play whose result is nearest to what was printed, if exactly one
        is nearest — the intent is then clear; if not, with the possible steps only.
        """
        printed, plausible = self._printed(position, steps)
        inferred = None
        dice = event.ply.dice if event.ply else None
        if not plausible and dice is not None and all(1 <= d <= 6 for d in dice):
            target = printed.board(position.turn)
            best: list[Position] = []
            best_distance = None
            for play in legal_plays(position, dice):
                board = play.position.board(position.turn)
                distance = sum(abs(a - b) for a, b in zip(board, target, strict=True))
                if best_distance is None or distance < best_distance:
                    best, best_distance = [play.position], distance
                elif distance == best_distance and play.position not in best:
                    best.append(play.position)
            if len(best) == 1:
                inferred = best[0]
        self.position = inferred or printed
        return inferred

    def _printed(self, position: Position, steps: list[Step]) -> tuple[Position, bool]:
        """The board after the printed steps (impossible ones skipped) and whether all were
        physically possible."""
        done = play_unchecked(position, steps)
        return done.position, done.plausible

    def _describe(self, before: Position, after: Position, side: str) -> str:
        """A play as ``from/to`` labels, read off the board difference (for messages)."""
        s = _side_index(side)
        old, new = before.board(s), after.board(s)
        left = [i for i in range(25, -1, -1) for _ in range(max(old[i] - new[i], 0))]
        arrived = [i for i in range(25, -1, -1) for _ in range(max(new[i] - old[i], 0))]
        pairs = [
            f"{self._label(a, side)}/{self._label(b, side)}"
            for a, b in zip(left, arrived, strict=False)
        ]
        return ", ".join(pairs) or "Ø"

    def _settle_offer(self, event: PlayEvent) -> None:
        """A play after an offer means it was accepted (the book omits the take)."""
        pending = self.cube.pending
        if pending is None:
            return
        answerer = "white" if pending.by == "black" else "black"
        try:
            self.cube = self.cube.take(answerer)
            self.trace.append((answerer, "take", pending.value))
        except RuleViolation as exc:
            for p in exc.problems:
                self.errors.append(locate(p, move=event.move, side=event.side, text=event.text))

    def cube_event(self, event: CubeEvent) -> None:
        actions = list(event.actions)
        move = event.move
        for i, action in enumerate(actions):
            if (
                action.kind == "take"
                and i + 1 < len(actions)
                and actions[i + 1].kind in ("beaver", "raccoon")
            ):
                continue  # "D16. B32": the beaver includes the take.
            if self._finished():
                self.error(
                    "moves_after_game_end",
                    after_end_cube=True,
                    action=action.kind,
                    move=move,
                    side=event.side,
                    text=event.text,
                )
                return
            self._cube_action(action, event)

    def _cube_action(self, action: CubeAction, event: CubeEvent) -> None:
        pending = self.cube.pending
        if action.kind in ("offer", "auto"):
            actor = event.side or self.turn
        elif pending is not None:
            actor = event.side or ("white" if pending.by == "black" else "black")
        else:
            actor = event.side or self.turn
        move = self.expected_move  # a cube action belongs to the roll that follows it
        where = {"move": move, "side": actor, "text": event.text}
        try:
            if action.kind == "offer":
                if actor != self.turn:
                    self.error("double_out_of_turn", actor=actor, turn=self.turn, **where)
                    return
                expected = self.cube.rules.next_value(self.cube.value)
                self._value_check(action, expected, where)
                self.cube = self.cube.offer(actor, moves_each=min(self.moves_done.values()))
            elif action.kind == "take":
                if pending is not None:
                    self._value_check(action, pending.value, where)
                self.cube = self.cube.take(actor)
            elif action.kind == "beaver":
                if pending is not None:
                    self._value_check(action, self.cube.rules.next_value(pending.value), where)
                self.cube = self.cube.beaver(actor)
            elif action.kind == "raccoon":
                if pending is not None:
                    self._value_check(action, self.cube.rules.next_value(pending.value), where)
                self.cube = self.cube.raccoon(actor)
            elif action.kind == "drop":
                self.cube = self.cube.drop(actor)
            elif action.kind == "auto":
                self._value_check(action, self.cube.rules.next_value(self.cube.value), where)
                self.cube = self.cube.autodouble()
        except RuleViolation as exc:
            for p in exc.problems:
                self.errors.append(replace(locate(p, **where), game=self.game))
            return
        self.trace.append((actor, action.kind, action.value))

    def _value_check(self, action: CubeAction, expected: int, where: dict[str, Any]) -> None:
        if action.value is not None and action.value != expected:
            self.error("cube_wrong_value", value=action.value, expected=expected, **where)

    def checkpoint(self, event: CheckpointEvent) -> None:
        move, side = self.last if self.last else (None, None)
        diff: dict[str, dict[str, dict[str, int]]] = {}
        boards: list[tuple[int, ...]] = []
        for side_name, items in (("white", event.white), ("black", event.black)):
            s = _side_index(side_name)
            expected = [0] * 26
            bad_label = None
            for label, count in items:
                try:
                    expected[self._cached_index(label, side_name, self.numbering)] += count
                except ValueError:
                    bad_label = label
            if bad_label is not None:
                self.error(
                    "bad_point",
                    label=bad_label,
                    scope="checkpoint",
                    move=move,
                    side=side_name,
                    text=event.text,
                )
            actual = self.position.board(s)
            differing: dict[str, dict[str, int]] = {}
            for index in range(1, 26):
                if expected[index] != actual[index]:
                    label = self._label(index, side_name)
                    differing[label] = {"expected": expected[index], "actual": actual[index]}
            if differing:
                diff[side_name] = differing
            expected[0] = max(self.rules.checkers - sum(expected[1:]), 0)
            boards.append(tuple(expected))
        ok = not diff
        self.checkpoints.append(CheckpointReport(move, side, ok, diff, event.text, event.line))
        if not ok:
            self.error(
                "checkpoint_mismatch",
                move=move,
                side=side,
                text=event.text,
                diff=diff,
            )
            self.position = Position(boards[0], boards[1], self.position.turn, self.record.variant)

    def _label(self, index: int, side: str) -> str:
        if self.numbering == "own":
            return {25: "bar", 0: "off"}.get(index, str(index))
        from scoring.rules.board import index_to_label  # noqa: PLC0415

        return index_to_label(index, _side_index(side), self.numbering, self.rules.geometry)

    def run(self, events: list[Event]) -> None:
        self.opening()
        for event in events:
            if isinstance(event, PlayEvent):
                self.play(event)
            elif isinstance(event, CubeEvent):
                self.cube_event(event)
            elif isinstance(event, CheckpointEvent):
                self.checkpoint(event)
            elif isinstance(event, ClaimEvent):
                self.claim = event

    def result(self) -> RecordResult | None:
        table = self.rules.table
        if self.cube.is_over and self.cube.winner_by_pass is not None:
            return RecordResult(
                self.cube.winner_by_pass, table.kinds[0][0], self.cube.value, self.cube.value, True
            )
        finished = game_result(self.position)
        if finished is None:
            return None
        return RecordResult(
            SIDE_NAMES[finished.winner],
            finished.kind,
            self.cube.value,
            finished.value * self.cube.value,
        )

    def report(self) -> ReplayReport:
        result = self.result()
        if self.claim is not None:
            claim = self.claim
            if result is None:
                # A resignation: the stated points stand, as a multiple of the cube.
                kinds = dict(self.rules.table.kinds)
                per_cube = claim.points // max(self.cube.value, 1)
                kind = next((k for k, v in kinds.items() if v == per_cube), None)
                # A resignation cannot concede more than the loser still risks: score the
                # board as if the winner had borne off everything now.
                winner_index = _side_index(claim.side)
                boards = [self.position.white, self.position.black]
                boards[winner_index] = (self.rules.checkers,) + (0,) * 25
                at_most = game_result(Position(boards[0], boards[1], 0, self.record.variant))
                limit = at_most.value if at_most is not None else 0
                if kind is None or per_cube * self.cube.value != claim.points or per_cube > limit:
                    self.error(
                        "result_mismatch",
                        player=claim.side,
                        points=claim.points,
                        cube=self.cube.value,
                        limit=limit * self.cube.value,
                        side=claim.side,
                        text=claim.text,
                    )
                result = RecordResult(claim.side, kind or "resign", self.cube.value, claim.points)
            elif (claim.side, claim.points) != (result.winner, result.points):
                self.error(
                    "result_mismatch",
                    player=claim.side,
                    points=claim.points,
                    winner=result.winner,
                    replay_points=result.points,
                    result=result.kind,
                    cube=result.cube,
                    side=claim.side,
                    text=claim.text,
                )
        return ReplayReport(
            variant=self.record.variant,
            numbering=self.numbering,
            errors=self.errors,
            checkpoints=self.checkpoints,
            result=result,
            position=self.position,
            plays=self.plays,
            positions=self.positions,
        )


def _msg_numbering(numbering: str) -> str:
    return "through" if numbering == "own" else numbering


def replay(record: Record, *, keep_positions: bool = False) -> ReplayReport:
    """Replay a parsed record and report every problem (see the module docstring)."""
    replayer = Replayer(record, keep_positions=keep_positions)
    replayer.run(record.events)
    return replayer.report()


def validate_text(
    text: str, *, variant: str | None = None, numbering: str | None = None
) -> ReplayReport:
    """Parse and replay book-style text in one call (the ``validate_record`` command)."""
    return replay(parse_record(text, variant=variant, numbering=numbering))


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
            right = row.get(_other(record.first), "")
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


__all__ = [
    "RECORD_CODES",
    "VARIANTS",
    "CheckpointEvent",
    "CheckpointReport",
    "ClaimEvent",
    "CommentEvent",
    "CubeEvent",
    "Event",
    "PlayEvent",
    "Record",
    "RecordResult",
    "ReplayReport",
    "Replayer",
    "detect_variant",
    "format_record",
    "parse_record",
    "replay",
    "validate_text",
]
