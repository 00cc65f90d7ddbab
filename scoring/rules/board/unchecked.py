"""Moving checkers as printed, with no rule of play: for replaying past a misprint.

``play_unchecked`` is the one place where "just move the checkers" is defined;
``apply_steps_unchecked`` is its strict form.
"""

from __future__ import annotations

from typing import NamedTuple

from scoring.rules.board.position import BAR, BLACK, WHITE, Position, opposite_table
from scoring.rules.board.steps import Step
from scoring.rules.variants import get_variant


class UncheckedPlay(NamedTuple):
    """What :func:`play_unchecked` did with a printed play.

    ``position`` has the turn passed to the opponent; ``plausible`` says every step was
    physically possible (a checker there, moving forward, landing on a point the opponent
    does not hold); ``hits`` are the mover's indices where a lone opposing checker went to
    the bar; ``missing`` the positions (0-based) in ``steps`` that had no checker to move
    and were skipped.
    """

    position: Position
    plausible: bool
    hits: tuple[int, ...]
    missing: tuple[int, ...]


def play_unchecked(
    position: Position, steps: list[Step] | tuple[Step, ...], *, skip_impossible: bool = False
) -> UncheckedPlay:
    """Move checkers as told without the rules of play, skipping steps with no checker.

    The one place where "just move the checkers" is defined, so that the record replayer
    can carry on after a misprint whose intent is clear and still know whether the printed
    steps were physically possible. A lone opposing checker on a landing point is hit in
    the games that hit; nothing else is checked.

    With ``skip_impossible`` a step that cannot physically be made (backwards, or onto a
    point the opponent holds) is skipped like a missing checker, so the board stays one
    that can exist (never both colours on a point).
    """
    v = get_variant(position.variant)
    omap = opposite_table(v.geometry)
    closed = 2 if v.hitting else 1
    hitting = v.hitting
    me = list(position.mover)
    op = list(position.opponent)
    plausible = True
    hits: list[int] = []
    missing: list[int] = []
    for n, st in enumerate(steps):
        src, dst = st.src, st.dst
        if not (0 <= src <= 25 and 0 <= dst <= 25) or me[src] <= 0:
            plausible = False
            missing.append(n)
            continue
        landing = 1 <= dst <= 24
        if dst >= src or (landing and op[omap[dst]] >= closed):
            plausible = False
            if skip_impossible:
                missing.append(n)
                continue
        me[src] -= 1
        me[dst] += 1
        if hitting and landing and op[omap[dst]] == 1:
            op[omap[dst]] = 0
            op[BAR] += 1
            hits.append(dst)
    mover, opponent = tuple(me), tuple(op)
    if position.turn == WHITE:
        after = Position(mover, opponent, BLACK, position.variant)
    else:
        after = Position(opponent, mover, WHITE, position.variant)
    return UncheckedPlay(after, plausible, tuple(hits), tuple(missing))


def apply_steps_unchecked(position: Position, steps: list[Step] | tuple[Step, ...]) -> Position:
    """Move checkers as told, without any rule check (hits happen on lone opposing checkers).

    For replaying past a misprint whose intent is clear; raises ``ValueError`` only when a
    step has no checker to move at all (:func:`play_unchecked` skips such steps instead).
    The result has the turn passed and each colour's checkers in its own slot, whichever
    side moved.
    """
    done = play_unchecked(position, steps)
    if done.missing:
        st = steps[done.missing[0]]
        raise ValueError(f"no checker on index {st.src}")
    return done.position
