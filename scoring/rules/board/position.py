"""Immutable positions, point labels, pip counts and the result of a finished game.

A :class:`Position` is a ``NamedTuple`` — hashable, cheap to build, safe to share — with
one 26-slot tuple of checker counts per colour, each **from that colour's own point of
view** (the representation the move generator wants, so it never converts):

* index 0: checkers borne off (двор),
* index 1…24: points, counted as the distance still to go (1 = deepest home point,
  6 = the last home point, 24 = the farthest point / the long-nardy head),
* index 25: checkers on the bar (бар; always 0 in long nardy, where nothing is hit).

``turn`` is the side on roll (:data:`WHITE` = 0, :data:`BLACK` = 1) and ``variant`` the
key of a :mod:`scoring.rules.variants` record. Which opponent slot is the same physical
point as one of ours depends on the geometry (:func:`opposite_index`): backgammon sides
move towards each other (our 1 is their 24), long-nardy sides move the same way round
(our 1 is their 13, our head 24 is their 12).

Point labels (ch7, ch8 fig. 14, ch9 fig. 19): the book's *traditional* numbering names
White's half ``1…12`` and Black's half ``01…012``; *through* numbering (backgammon,
ch10 fig. 24) names the points ``1…24`` from White's home. Labels are absolute board
names, so converting needs the side whose move it is: :func:`label_to_index` /
:func:`index_to_label`. For long nardy the book only uses traditional labels; our
through numbering for it is White's path (White index = label; Black's head is 12).
``"bar"`` is 25 and ``"off"`` is 0 in every numbering.

Results (:func:`game_result`) follow RULES.md §4 with the table named by the variant or
passed in by the competition (backgammon 1-2-3, trictrac 1-2-4-8, long nardy 1-2-3,
oyun-mars 1-2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from scoring.rules.variants import SCORING_TABLES, ScoringTable, Variant, get_variant

WHITE = 0
BLACK = 1
SIDE_NAMES = ("white", "black")

OFF = 0
BAR = 25

Board = tuple[int, ...]

# Own index -> the opponent's index of the same physical point, per geometry.
_OPP_SHORT: tuple[int, ...] = (0,) + tuple(25 - i for i in range(1, 25)) + (25,)
_OPP_LONG: tuple[int, ...] = (
    (0,) + tuple(i + 12 if i <= 12 else i - 12 for i in range(1, 25)) + (25,)
)


def opposite_table(geometry: str) -> tuple[int, ...]:
    """``table[i]`` is the opponent's index of our point ``i`` (1…24) in ``geometry``."""
    return _OPP_LONG if geometry == "long" else _OPP_SHORT


def opposite_index(geometry: str, index: int) -> int:
    """The opponent's index of the physical point that is ``index`` for us."""
    return opposite_table(geometry)[index]


def side_of(name: str | int) -> int:
    """Accept ``0/1`` or ``"white"/"black"`` (also Russian) and return ``WHITE``/``BLACK``."""
    if name in (WHITE, BLACK):
        return int(name)
    key = str(name).strip().lower()
    if key in ("white", "w", "белые", "белый", "б"):
        return WHITE
    if key in ("black", "b", "чёрные", "черные", "чёрный", "черный", "ч"):
        return BLACK
    raise ValueError(f"unknown side {name!r}")


class GameResult(NamedTuple):
    """Winner, kind of win (a key of the scoring table) and its value before the cube."""

    winner: int
    kind: str
    value: int

    @property
    def winner_name(self) -> str:
        return SIDE_NAMES[self.winner]


class Position(NamedTuple):
    """Checkers of both colours, the side on roll and the game (see module docstring)."""

    white: Board
    black: Board
    turn: int = WHITE
    variant: str = "backgammon"

    # -- construction -------------------------------------------------------------------

    @classmethod
    def start(cls, variant: str | Variant = "backgammon", turn: int = WHITE) -> Position:
        """The starting position of ``variant`` with ``turn`` to roll."""
        v = get_variant(variant)
        board = [0] * 26
        for index, count in v.start:
            board[index] = count
        b = tuple(board)
        return cls(b, b, turn, v.key)

    @classmethod
    def from_boards(
        cls, mover: Board, opponent: Board, turn: int = WHITE, variant: str = "backgammon"
    ) -> Position:
        """Build from the side on roll's board and its opponent's (both own-perspective)."""
        mover, opponent = tuple(mover), tuple(opponent)
        if turn == WHITE:
            return cls(mover, opponent, turn, variant)
        return cls(opponent, mover, turn, variant)

    @classmethod
    def from_labels(
        cls,
        white: dict[str, int],
        black: dict[str, int],
        turn: int = WHITE,
        variant: str = "backgammon",
        numbering: str = "traditional",
        white_off: int | None = None,
        black_off: int | None = None,
    ) -> Position:
        """Build from ``{label: count}`` maps as printed in the book's checkpoint lines.

        Checkers not placed are taken as borne off unless ``*_off`` says otherwise.
        """
        v = get_variant(variant)
        boards = []
        for side, points, off in ((WHITE, white, white_off), (BLACK, black, black_off)):
            board = [0] * 26
            for label, count in points.items():
                board[label_to_index(label, side, numbering, v.geometry)] += count
            placed = sum(board[1:])
            board[0] = v.checkers - placed if off is None else off
            boards.append(tuple(board))
        return cls(boards[0], boards[1], turn, v.key)

    # -- play -----------------------------------------------------------------------------

    def legal_plays(self, dice: tuple[int, int]) -> list[Any]:
        """Every legal play of the side on roll, as a python-chess board knows its legal moves.

        Generation lives in :mod:`scoring.rules.board.legal`, which imports this module; it hands
        its generator down through :func:`set_play_generator` (the one-way rule), so the
        position can answer without importing it back.
        """
        if _play_generator is None:
            raise RuntimeError("import scoring.rules (or scoring.rules.board.legal) to generate plays")
        return _play_generator(self, dice)

    # -- views --------------------------------------------------------------------------

    @property
    def rules(self) -> Variant:
        return get_variant(self.variant)

    def board(self, side: int) -> Board:
        return self.white if side == WHITE else self.black

    @property
    def mover(self) -> Board:
        """The board of the side on roll (own perspective)."""
        return self.white if self.turn == WHITE else self.black

    @property
    def opponent(self) -> Board:
        return self.black if self.turn == WHITE else self.white

    def with_turn(self, turn: int) -> Position:
        return self._replace(turn=turn)

    def passed(self) -> Position:
        """The same checkers with the other side on roll (after a play or a pass)."""
        return self._replace(turn=1 - self.turn)

    def labels(self, side: int, numbering: str = "traditional") -> dict[str, int]:
        """``{label: count}`` of ``side``'s checkers on the points and the bar (not off)."""
        geometry = get_variant(self.variant).geometry
        b = self.board(side)
        return {index_to_label(i, side, numbering, geometry): b[i] for i in range(1, 26) if b[i]}

    def checker_count(self, side: int) -> int:
        return sum(self.board(side))

    def validate(self) -> list[str]:
        """Human-readable reasons why this cannot be a position of its game ([] if fine)."""
        v = get_variant(self.variant)
        reasons: list[str] = []
        opp = opposite_table(v.geometry)
        for side in (WHITE, BLACK):
            b = self.board(side)
            if len(b) != 26 or any(c < 0 for c in b):
                reasons.append(f"{SIDE_NAMES[side]}: a board needs 26 non-negative counts")
                continue
            if sum(b) != v.checkers:
                reasons.append(f"{SIDE_NAMES[side]} has {sum(b)} checkers, not {v.checkers}")
            if not v.hitting and b[BAR]:
                reasons.append(f"{SIDE_NAMES[side]} has checkers on the bar in {v.key}")
        if not reasons:
            for i in range(1, 25):
                if self.white[i] and self.black[opp[i]]:
                    reasons.append(f"both colours on white's point {i}")
        return reasons

    def __str__(self) -> str:
        w = ", ".join(f"{k}({c})" for k, c in self.labels(WHITE).items())
        b = ", ".join(f"{k}({c})" for k, c in self.labels(BLACK).items())
        return (
            f"{self.variant}: white {w or '-'} off {self.white[0]}; "
            f"black {b or '-'} off {self.black[0]}; {SIDE_NAMES[self.turn]} to play"
        )


def start_position(variant: str | Variant = "backgammon", turn: int = WHITE) -> Position:
    return Position.start(variant, turn)


# -- point labels ---------------------------------------------------------------------------

NUMBERINGS = ("traditional", "through")


def label_to_index(
    label: str, side: int, numbering: str = "traditional", geometry: str = "short"
) -> int:
    """Convert a printed point label into ``side``'s own index (0 = off, 25 = bar).

    ``numbering`` is ``"traditional"`` (``1…12`` White's half, ``01…012`` Black's half) or
    ``"through"`` (``1…24`` from White's home). Raises ``ValueError`` on a bad label.
    """
    text = label.strip().lower()
    if text in ("bar", "бар", "борт"):
        return BAR
    if text in ("off", "двор"):
        return OFF
    if not text.isdigit():
        raise ValueError(f"not a point label: {label!r}")
    if numbering == "through":
        if text.startswith("0"):
            raise ValueError(f"through numbering has no 0-prefixed labels: {label!r}")
        n = int(text)
        if not 1 <= n <= 24:
            raise ValueError(f"through label out of range 1…24: {label!r}")
        white_index = n
    elif numbering == "traditional":
        black_half = text.startswith("0")
        n = int(text)
        if not 1 <= n <= 12:
            raise ValueError(f"traditional label out of range 1…12 / 01…012: {label!r}")
        if not black_half:
            white_index = n
        else:
            white_index = n + 12 if geometry == "long" else 25 - n
    else:
        raise ValueError(f"unknown numbering {numbering!r}")
    return white_index if side == WHITE else opposite_table(geometry)[white_index]


def index_to_label(
    index: int, side: int, numbering: str = "traditional", geometry: str = "short"
) -> str:
    """Inverse of :func:`label_to_index`: ``side``'s index as a printed label."""
    if index == BAR:
        return "bar"
    if index == OFF:
        return "off"
    if not 1 <= index <= 24:
        raise ValueError(f"index out of range: {index}")
    if numbering == "own":  # each side from its own home (GNU Backgammon's .mat)
        return str(index)
    white_index = index if side == WHITE else opposite_table(geometry)[index]
    if numbering == "through":
        return str(white_index)
    if numbering != "traditional":
        raise ValueError(f"unknown numbering {numbering!r}")
    if white_index <= 12:
        return str(white_index)
    n = white_index - 12 if geometry == "long" else 25 - white_index
    return f"0{n}"


# -- counts and results --------------------------------------------------------------------


def pip_count(position: Position, side: int) -> int:
    """Total distance ``side`` still has to travel (bar counts 25)."""
    b = position.board(side)
    return sum(i * b[i] for i in range(1, 26))


def all_home(position: Position, side: int) -> bool:
    """True when every checker of ``side`` still in play is on its home points 1…6."""
    b = position.board(side)
    return not any(b[7:26])


def is_game_over(position: Position) -> bool:
    v = get_variant(position.variant)
    return position.white[OFF] == v.checkers or position.black[OFF] == v.checkers


def winner(position: Position) -> int | None:
    v = get_variant(position.variant)
    if position.white[OFF] == v.checkers:
        return WHITE
    if position.black[OFF] == v.checkers:
        return BLACK
    return None


def game_result(position: Position, table: str | ScoringTable | None = None) -> GameResult | None:
    """Winner and kind of win for a finished game (``None`` while it goes on).

    ``table`` defaults to the variant's own. The loser's position decides the kind:

    * backgammon: single if the loser bore off any; otherwise gammon, or backgammon when a
      loser's checker is on the bar or in the winner's home (loser's 19…24);
    * trictrac: oyun if any off; mars if none off but all home; koks if one is on the bar;
      otherwise home mars (ch8 r28–r31);
    * long nardy: oyun if any off; mars if none off but all home; else home mars (ch9 r7–r9);
    * oyun_mars: oyun if any off, else mars.
    """
    won = winner(position)
    if won is None:
        return None
    if table is None:
        t = get_variant(position.variant).table
    elif isinstance(table, ScoringTable):
        t = table
    else:
        t = SCORING_TABLES[table]
    loser = position.board(1 - won)
    if loser[OFF] > 0:
        kind = "single" if t.key == "backgammon" else "oyun"
    elif t.key == "backgammon":
        kind = "backgammon" if any(loser[19:26]) else "gammon"
    elif t.key == "oyun_mars":
        kind = "mars"
    elif not any(loser[7:26]):
        kind = "mars"
    elif t.key == "trictrac" and loser[BAR]:
        kind = "koks"
    else:
        kind = "home_mars"
    return GameResult(won, kind, t.value(kind))


#: The legal-play generator, handed down by :mod:`scoring.rules.board.legal` at import.
_play_generator: Callable[[Position, tuple[int, int]], list[Any]] | None = None


def set_play_generator(generator: Callable[[Position, tuple[int, int]], list[Any]]) -> None:
    """Give positions their legal-play generator (called once, by :mod:`scoring.rules.board.legal`)."""
    global _play_generator
    _play_generator = generator
