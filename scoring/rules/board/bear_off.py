"""The book's exact bear-off (short nardy and Caucasian nardy, ch8 r22-r26), said once.

International backgammon lets any die bear off from its point or be spent inside home.
The book's short nardy does not: once all of a side's checkers are home,

* r22: a die whose number is a home point holding one of the mover's checkers bears a
  checker off *from that point* ("если на зарах выпало 5–2, то нужно снять одну шашку
  с пункта 2, а другую с 5");
* r26: a checker standing on a point that a die still to be played this turn will need
  (as many checkers as such dice) may not be moved inside home first — with 6-1 and one
  checker on the 6 point, ``6/5/off`` is illegal;
* r25: the order does not matter ("или – наоборот"): a play is legal when *some* order
  of its steps keeps the rule.

:func:`exact_bear_off_owed` is the rule for one step; the move generator, the check of
a printed play and its diagnosis all ask it. :func:`exact_bear_off_may_apply` says when
the rule cannot bite at all, so that the fast backgammon generators (which know nothing
of it) may be used; ``tests/core/rules/board/test_bear_off_rule.py`` checks on every roll that
the generators and this rule agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rules.variants import Variant


def exact_bear_off_owed(board: Sequence[int], src: int, die: int, dice_left: Sequence[int]) -> int:
    """The home point this step fails to respect under the exact bear-off, or 0 if it is fine.

    ``board`` is the mover's board (own indices, 0 off … 6 home … 25 bar) *before* the
    step, with every checker already home; ``src`` is where the step starts, ``die`` the
    die it uses and ``dice_left`` the dice still to be played after it. The answer names
    the point owed: ``die`` when that point is occupied and the step does not start
    there (r22), ``src`` when its checkers are all needed by dice still to come (r26).
    """
    if board[die]:
        return 0 if src == die else die  # r22: the die bears off from its own point
    if src in dice_left and board[src] <= dice_left.count(src):
        return src  # r26: this checker is kept for its own die
    return 0


def exact_bear_off_may_apply(variant: Variant, board: Sequence[int], steps: int) -> bool:
    """Can the exact bear-off constrain a play of ``steps`` single steps from ``board``?

    Only in a variant that has it, and only if every checker can be home before the last
    step, which needs fewer checkers outside home (the bar included) than steps. When
    this is false the international generators give exactly the book's plays.
    """
    return variant.exact_bear_off and sum(board[7:]) < steps
