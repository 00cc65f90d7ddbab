"""The legal plays of a position: :func:`legal_plays`, :func:`legal_end_positions`.

``legal_plays(position, dice) -> list[Play]``
    one play per *distinct resulting position* (like GNU Backgammon), all rules of
    RULES.md §2–3: both dice if possible else the larger, doubles as far as possible, bar
    first, hits, bear-off (exact, or from the highest point with a larger die), the
    book's exact bear-off in short nardy and Caucasian nardy (:mod:`scoring.rules.board.bear_off`),
    the Caucasian no-hide rule, and for long nardy no hitting, one checker off the head
    per turn with the first-turn doubles exception (ch9 r4), and the six-prime rules
    r5/r6 (karzar: r6 only). Always returns at least one play (a pass when nothing is
    legal). Also ``position.legal_plays(dice)``, as a python-chess board knows its moves.

``legal_end_positions(position, dice) -> list[Position]``
    the resulting positions only (the fast path; ``[]`` for a dance, like gnubg).

This module picks the generator (:mod:`scoring.rules.board.generate.short` for the backgammon
family, :mod:`scoring.rules.board.generate.general` for the rest) and turns its raw results
into plays and positions.
"""

from __future__ import annotations

from operator import itemgetter

from scoring.rules.board.bear_off import exact_bear_off_may_apply
from scoring.rules.board.generate.general import _gen_general
from scoring.rules.board.generate.short import (
    _double_moves,
    _end_four_steps,
    _end_two_dice,
    _gen_short,
)
from scoring.rules.board.position import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    Position,
    is_game_over,
    opposite_table,
    set_play_generator,
)
from scoring.rules.board.steps import Play, _check_dice, _opponent_after_hits, _with_hits
from scoring.rules.variants import get_variant


def _raw_plays(position: Position, dice: tuple[int, int]) -> list:
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        _check_dice(dice)
    v = get_variant(position.variant)
    if position.turn == WHITE:
        me, opp = position.white, position.black
    else:
        me, opp = position.black, position.white
    if me[OFF] == v.checkers or opp[OFF] == v.checkers:
        return []
    if v.geometry == "short" and not v.caucasian:
        # The backgammon generators know nothing of the exact bear-off: use them only
        # where it cannot bite.
        if not exact_bear_off_may_apply(v, me, 4 if d1 == d2 else 2):
            return _gen_short(me, opp, d1, d2)
    return _with_hits(_gen_general(v, me, opp, d1, d2))


#: ``tuple.__new__``: a ``Position``/``Play`` without the NamedTuple's Python-level
#: ``__new__``. Kept because it is measured: with plain constructors ``bench/legal_moves.py``
#: loses about 11% on ``legal_plays`` (36.1k → 32.3k positions/s CPU, commit 3cc69b2),
#: more than the 10% the project allows; it buys only ~1.12×, so nowhere else uses it.
_new_tuple = tuple.__new__

_third = itemgetter(2)


def _positions_of(position: Position, raw: list) -> list[Position]:
    """The positions (turn passed) of raw ``(steps, mover_board, hit_bits)`` results.

    Hot: built without the ``NamedTuple`` constructor's Python-level ``__new__``, the
    opponent's board after each distinct set of hits is built once, and the loops are
    comprehensions with everything in locals (about as cheap as a tuple per result gets).
    """
    turn = position.turn
    variant = position.variant
    new = _new_tuple
    cls = Position
    if turn == WHITE:
        opp = position.black
        if 1 not in opp:  # no blot anywhere: nothing was hit
            return [new(cls, (board, opp, BLACK, variant)) for _s, board, _h in raw]
        after = _opponents_after_hits(opp, raw, variant)
        return [new(cls, (board, after[h], BLACK, variant)) for _s, board, h in raw]
    opp = position.white
    if 1 not in opp:
        return [new(cls, (opp, board, WHITE, variant)) for _s, board, _h in raw]
    after = _opponents_after_hits(opp, raw, variant)
    return [new(cls, (after[h], board, WHITE, variant)) for _s, board, h in raw]


def _opponents_after_hits(opp: tuple[int, ...], raw: list, variant: str) -> dict:
    """``{hit_bits: opponent board}`` for every set of hit blots among ``raw``'s results."""
    after: dict[int, tuple[int, ...]] = {0: opp}
    omap = opposite_table(get_variant(variant).geometry)
    for hit_bits in set(map(_third, raw)):
        if hit_bits:
            after[hit_bits] = _opponent_after_hits(opp, hit_bits, omap)
    return after


def legal_end_positions(position: Position, dice: tuple[int, int]) -> list[Position]:
    """The distinct positions a legal play of ``dice`` leads to (turn passed), fast.

    The same positions as ``[p.position for p in legal_plays(position, dice)]`` in the
    same order, without building :class:`Play` objects: this is the path for callers that
    only compare outcomes (the record replayer, :func:`scoring.rules.legal_positions`).
    Unlike :func:`legal_plays`, a roll with no legal move and a finished game both give
    ``[]`` (like GNU Backgammon's move generator); raises ``ValueError`` for bad dice.
    """
    d1, d2 = dice
    v = get_variant(position.variant)
    if v.geometry == "short" and not v.caucasian and 1 <= d1 <= 6 and 1 <= d2 <= 6:
        if position.turn == WHITE:
            me, opp = position.white, position.black
        else:
            me, opp = position.black, position.white
        if not me[BAR] and opp[OFF] != v.checkers:
            # The middle game: nobody can bear off, so no rule depends on the order.
            outside = sum(me[7:])
            if d1 != d2:
                if outside >= 2:
                    found = _end_two_dice(position, me, opp, d1, d2)
                    if found:
                        return found
            elif outside >= 4:
                moves = _double_moves(me, opp, d1)
                if moves:
                    found = _end_four_steps(position, me, opp, moves)
                    if found:
                        return found
    return _positions_of(position, _raw_plays(position, dice))


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal play for ``dice``, one per distinct resulting position.

    A forced pass is returned as the single play ``Play((), position.passed())``. When
    the game is already over the list is empty.
    """
    raw = _raw_plays(position, dice)
    if not raw:
        if is_game_over(position):
            return []
        return [Play((), position.passed())]
    return [
        _new_tuple(Play, (st, after))
        for (st, _board, _hits), after in zip(raw, _positions_of(position, raw), strict=True)
    ]


# The position knows its legal plays (``position.legal_plays(dice)``); this module hands its
# generator down to board.py, which must not import it back (one direction: legal → board).
set_play_generator(legal_plays)


def max_dice_playable(position: Position, dice: tuple[int, int]) -> int:
    """How many dice (0…4) a legal play of this roll uses."""
    raw = _raw_plays(position, dice)
    return len(raw[0][0]) if raw else 0


def has_legal_move(position: Position, dice: tuple[int, int]) -> bool:
    return bool(_raw_plays(position, dice))
