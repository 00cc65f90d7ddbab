"""The vocabulary of plays: a :class:`Step`, a :class:`Play`, the dice, shared tables.

* a :class:`Step` is one checker moving by one die: ``(src, dst, hit, die)`` in the
  **mover's own indices** (25 = bar, 0 = off; see :mod:`scoring.rules.board.position`); ``hit``
  says an opposing blot was sent to the bar; ``die`` is the pip value consumed (it can
  exceed ``src - dst`` when bearing off from below the die's point);
* a :class:`Play` is the whole turn: a tuple of steps and the resulting
  :class:`~scoring.rules.board.position.Position` with the turn passed. A forced pass (Ø) is a
  ``Play`` with no steps.

The generators (:mod:`scoring.rules.board.generate.short`, :mod:`scoring.rules.board.generate.general`)
return raw ``(steps, mover_board, hit_bits)`` triples; :mod:`scoring.rules.board.legal` turns
them into plays and positions. The tables here are shared by both.
"""

from __future__ import annotations

from typing import NamedTuple

from scoring.rules.board.position import BAR, Position


class Step(NamedTuple):
    """One checker moved by one die, in the mover's own indices (25 bar, 0 off)."""

    src: int
    dst: int
    hit: bool | None = False
    die: int = 0


class Play(NamedTuple):
    """A whole turn and the position it leads to (turn passed to the opponent)."""

    steps: tuple[Step, ...]
    position: Position

    @property
    def is_pass(self) -> bool:
        return not self.steps

    @property
    def dice_used(self) -> int:
        return len(self.steps)


# Weights of the incremental position key: 4 bits per slot for the mover's 26 counts,
# then one bit per point for "the opposing blot there was hit".
_W = tuple(1 << (4 * i) for i in range(26))
_H = tuple(1 << (104 + i) for i in range(26))


def dice_list(dice: tuple[int, int]) -> list[int]:
    """The single steps a roll gives: two dice, or four of a double."""
    d1, d2 = dice
    return [d1] * 4 if d1 == d2 else [d1, d2]


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be 1…6, got {dice!r}")
    return d1, d2


# Pre-built steps: building a NamedTuple per step dominates otherwise.
_STEP_CACHE: dict[tuple[int, int, bool, int], Step] = {
    (s, t, h, d): Step(s, t, h, d)
    for s in range(26)
    for t in range(26)
    for h in (False, True)
    for d in range(7)
}


def _hits_of(steps: tuple[Step, ...]) -> int:
    """Bit ``t`` set for every point ``t`` (mover's index) where a step hit a blot."""
    bits = 0
    for st in steps:
        if st[2]:
            bits |= 1 << st[1]
    return bits


def _opponent_after_hits(opp: tuple[int, ...], hit_bits: int, omap: tuple[int, ...]) -> tuple[int, ...]:
    """The opponent's board once the blots of ``hit_bits`` (our indices) are on the bar.

    ``omap`` is the geometry's :func:`~scoring.rules.board.position.opposite_table`. One pass per
    hit blot, lowest point first.
    """
    ob = list(opp)
    bits = hit_bits
    while bits:
        low = bits & -bits
        ob[omap[low.bit_length() - 1]] -= 1
        ob[BAR] += 1
        bits ^= low
    return tuple(ob)


def _with_hits(raw: list) -> list:
    """``(steps, board)`` results of the step-by-step searches as ``(steps, board, hits)``."""
    return [(st, board, _hits_of(st)) for st, board in raw]


def board_key(steps: tuple[Step, ...], board: tuple[int, ...]) -> tuple:
    """Identity of a play's outcome: the mover's board and which points were hit."""
    return (board, tuple(sorted(s.dst for s in steps if s.hit)))
