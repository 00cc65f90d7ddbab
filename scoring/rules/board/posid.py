"""GNU Backgammon Position IDs and Match IDs — the way players exchange positions.

Position ID (gnubg manual §11.6): for each side, first the player **not** on roll, then
the player on roll, for each of its points 1…24 and then its bar, write as many 1-bits as
it has checkers there followed by one 0-bit; pad to 80 bits, pack least significant bit
first into 10 bytes and Base64 them without padding (14 characters). The backgammon start
is ``4HPwATDgc/ABMA``. The ID does not say who is on roll or which colour is which, so
:func:`position_from_id` takes the side on roll as an argument. Only short-geometry games
(backgammon, short nardy, nackgammon, hypergammon, Caucasian) have Position IDs.

Match ID (gnubg manual §11.7): 66 bits, LSB first into 9 bytes, Base64 (12 characters):
cube log2 (4 bits), cube owner (2: 0, 1 or 3 = centred), dice owner / player on roll (1),
Crawford (1), game state (3), turn (1), double offered (1), resignation (2), die 1 (3),
die 2 (3), match length (15), score of player 0 (15), score of player 1 (15).
:class:`MatchKey` holds the fields as gnubg names them; players are gnubg's 0 and 1 and
mapping them to colours is the caller's business. GNU Backgammon 1.07 also sets a 67th bit
that the manual does not describe (its Match IDs end in ``E``); reading ignores it.

The manual's rules for the state fields, which :func:`match_key` applies so that no
caller has to remember them:

* "dice owner" is the player on roll (or who rolled); "turn" is the same player *except*
  while a double or a resignation is on the table: then it is the player who must
  take/pass or accept/reject. A pending offer ``cBmgACAAAAAA`` is therefore wrong and
  ``cBGgACAAAAAA`` right.
* When a game has ended the state is "over" (2), "resigned" (3) or "ended by a dropped
  cube" (4), no double is on offer, and the scores already include the game's points.
  GNU Backgammon leaves the resignation value set on a resigned game; "turn" stays with the
  player who passed the cube after a drop, and with the dice owner after a resignation (as
  gnubg shows a match it imported from a ``.mat`` file).

The Position ID is always from the dice owner's side (gnubg keeps its board from the
player on roll while an offer is answered), so pending offers do not change it.

XGID (eXtreme Gammon's position text, which GNU Backgammon also reads): 26 board
characters (the top player's bar, points 1…24 from the bottom player's side, the bottom
player's bar; ``A``–``P`` are the bottom player's checkers, ``a``–``p`` the top's), then
``:cube log2:cube position (1 bottom, -1 top, 0 centre):turn (1 bottom, -1 top):dice
("00" to roll, "D" doubled, "B" beavered, "R" raccooned — turn stays the doubler's):bottom score:top score:Crawford:
match length:max cube log2``. GNU Backgammon reads the top player as its player 0, so
:func:`xgid` puts gnubg's player 0 on top: both IDs describe the same state.
"""

from __future__ import annotations

import base64
import binascii
from typing import NamedTuple

from scoring.rules.board.position import BAR, OFF, WHITE, Position
from scoring.rules.variants import get_variant

START_POSITION_ID = "4HPwATDgc/ABMA"

# Game states of the Match ID.
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
CUBE_CENTRED = 3


def _b64encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str, nbytes: int, what: str) -> bytes:
    text = text.strip()
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not a valid {what}: {text!r}") from exc
    if len(data) != nbytes:
        raise ValueError(f"not a valid {what} (wrong length): {text!r}")
    return data


def encode_boards(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    """Position ID of two own-perspective 26-slot boards (the first is the side on roll)."""
    bits = 0
    n = 0
    for board in (opponent, on_roll):
        for i in range(1, 26):  # points 1…24, then the bar (index 25)
            c = board[i]
            bits |= ((1 << c) - 1) << n
            n += c + 1
    if n > 80:
        raise ValueError("too many checkers for a Position ID")
    return _b64encode(bits.to_bytes(10, "little"))


def decode_boards(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(on_roll, opponent)`` boards from a Position ID; borne-off counts are ``15 - placed``.

    Raises ``ValueError`` for anything that is not a well-formed ID (more than 15 checkers
    a side, not exactly 50 separators, bad Base64).
    """
    bits = int.from_bytes(_b64decode(position_id, 10, "Position ID"), "little")
    boards: list[list[int]] = []
    pos = 0
    for _ in range(2):
        board = [0] * 26
        for i in range(1, 26):
            c = 0
            while pos < 80 and (bits >> pos) & 1:
                c += 1
                pos += 1
            if pos >= 80:
                raise ValueError(f"not a valid Position ID (truncated): {position_id!r}")
            pos += 1  # the separating 0
            board[i] = c
        placed = sum(board)
        if placed > 15:
            raise ValueError(
                f"not a valid Position ID ({placed} checkers for one side): {position_id!r}"
            )
        board[OFF] = 15 - placed
        boards.append(board)
    if bits >> pos:
        raise ValueError(f"not a valid Position ID (stray bits): {position_id!r}")
    opponent, on_roll = boards
    return tuple(on_roll), tuple(opponent)


def position_id(position: Position, on_roll: int | None = None) -> str:
    """Position ID of ``position`` as seen by ``on_roll`` (default: the side whose turn it is)."""
    v = get_variant(position.variant)
    if v.geometry != "short":
        raise ValueError(f"{v.key} has no GNU Backgammon Position ID (long-nardy geometry)")
    side = position.turn if on_roll is None else on_roll
    return encode_boards(position.board(side), position.board(1 - side))


def position_from_id(position_id: str, turn: int = WHITE, variant: str = "backgammon") -> Position:
    """The position a Position ID describes, with ``turn`` (the side on roll) to play.

    For hypergammon the borne-off counts are ``3 - placed``.
    """
    v = get_variant(variant)
    if v.geometry != "short":
        raise ValueError(f"{v.key} has no GNU Backgammon Position ID (long-nardy geometry)")
    on_roll, opponent = decode_boards(position_id)
    fixed = []
    for b in (on_roll, opponent):
        placed = sum(b[1:])
        if placed > v.checkers:
            raise ValueError(f"{placed} checkers on the board for one side in {v.key}")
        fixed.append((v.checkers - placed,) + b[1:])
    return Position.from_boards(fixed[0], fixed[1], turn, v.key)


class MatchKey(NamedTuple):
    """The fields of a GNU Backgammon Match ID (players are gnubg's 0 and 1)."""

    cube: int = 1
    cube_owner: int = CUBE_CENTRED
    dice_owner: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)


_FIELDS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15)
#: GNU Backgammon 1.07 writes bit 66 (not in the manual); ignored when reading.
_GNUBG_EXTRA_BIT = sum(_FIELDS)


def encode_match_id(key: MatchKey) -> str:
    cube = key.cube
    if cube < 1 or cube & (cube - 1):
        raise ValueError(f"cube value must be a power of two: {cube}")
    values = (
        cube.bit_length() - 1,
        key.cube_owner,
        key.dice_owner,
        int(key.crawford),
        key.game_state,
        key.turn,
        int(key.double_offered),
        key.resignation,
        key.dice[0],
        key.dice[1],
        key.match_length,
        key.score[0],
        key.score[1],
    )
    bits = 0
    n = 0
    for width, value in zip(_FIELDS, values, strict=True):
        if not 0 <= value < (1 << width):
            raise ValueError(f"match key field out of range: {value} in {width} bits")
        bits |= value << n
        n += width
    return _b64encode(bits.to_bytes(9, "little"))


def decode_match_id(match_id: str) -> MatchKey:
    bits = int.from_bytes(_b64decode(match_id, 9, "Match ID"), "little")
    bits &= ~(1 << _GNUBG_EXTRA_BIT)
    values = []
    for width in _FIELDS:
        values.append(bits & ((1 << width) - 1))
        bits >>= width
    if bits:
        raise ValueError(f"not a valid Match ID (stray bits): {match_id!r}")
    (lg, owner, dice_owner, crawford, state, turn, dbl, resign, d1, d2, length, s0, s1) = values
    return MatchKey(
        cube=1 << lg,
        cube_owner=owner,
        dice_owner=dice_owner,
        crawford=bool(crawford),
        game_state=state,
        turn=turn,
        double_offered=bool(dbl),
        resignation=resign,
        dice=(d1, d2),
        match_length=length,
        score=(s0, s1),
    )


RESIGN_VALUES = {"single": 1, "gammon": 2, "backgammon": 3}


def match_key(
    *,
    cube: int,
    cube_owner: int | None,
    on_roll: int,
    length: int,
    score: tuple[int, int],
    crawford: bool = False,
    dice: tuple[int, int] | None = None,
    offered_by: int | None = None,
    game_state: int = GAME_PLAYING,
    answered_by: int | None = None,
    resignation: int = 0,
) -> MatchKey:
    """The Match ID fields of one moment of a game, by the manual's rules (module docstring).

    ``on_roll`` is the player whose roll it is (gnubg's "dice owner"); ``offered_by`` the
    player whose double (or beaver) is waiting for an answer; ``answered_by`` the player
    who passed the cube that ended the game. ``score`` is the
    score to show: after the game's points once the game is over.
    """
    playing = game_state == GAME_PLAYING
    turn = on_roll
    if playing and offered_by is not None:
        turn = 1 - offered_by
    elif not playing and answered_by is not None:
        turn = answered_by
    return MatchKey(
        cube=cube,
        cube_owner=CUBE_CENTRED if cube_owner is None else cube_owner,
        dice_owner=on_roll,
        crawford=crawford,
        game_state=game_state,
        turn=turn,
        double_offered=playing and offered_by is not None,
        resignation=resignation if game_state == GAME_RESIGNED else 0,
        dice=dice if dice is not None and playing else (0, 0),
        match_length=length,
        score=score,
    )


def _xg_char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    if count > 16:
        raise ValueError("too many checkers on one point for an XGID")
    return chr((ord("A") if upper else ord("a")) + count - 1)


def xgid(
    player0: tuple[int, ...], player1: tuple[int, ...], key: MatchKey, *, offer_kind: str = "double"
) -> str:
    """The XGID of a state: own-perspective 26-slot boards of gnubg's players 0 and 1.

    Player 0 is XG's top player (lower case), player 1 the bottom one; ``key`` is the
    state's Match ID fields (so the two IDs can never disagree), ``offer_kind`` names a
    pending redouble ("beaver"/"raccoon") since the Match ID cannot.
    """
    top, bottom = player0, player1
    chars = ["-"] * 26
    chars[0] = _xg_char(top[25], False)
    chars[25] = _xg_char(bottom[25], True)
    for i in range(1, 25):
        b, t = bottom[i], top[25 - i]
        if b and t:
            raise ValueError("both sides on one point")
        chars[i] = _xg_char(b, True) if b else _xg_char(t, False)
    side = {0: -1, 1: 1}
    cube_pos = 0 if key.cube_owner == CUBE_CENTRED else side[key.cube_owner]
    if key.double_offered:
        dice = {"beaver": "B", "raccoon": "R"}.get(offer_kind, "D")
    elif key.dice != (0, 0):
        dice = f"{key.dice[0]}{key.dice[1]}"
    else:
        dice = "00"
    fields = (
        "".join(chars),
        key.cube.bit_length() - 1,
        cube_pos,
        side[key.dice_owner],  # "D"/"B"/"R": the player who doubled (or was beavered)
        dice,
        key.score[1],
        key.score[0],
        int(key.crawford),
        key.match_length,
        10,
    )
    return "XGID=" + ":".join(str(f) for f in fields)


__all__ = [
    "BAR",
    "RESIGN_VALUES",
    "match_key",
    "xgid",
    "START_POSITION_ID",
    "MatchKey",
    "decode_boards",
    "decode_match_id",
    "encode_boards",
    "encode_match_id",
    "position_from_id",
    "position_id",
]
