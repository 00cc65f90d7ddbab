"""Legal plays for a position and a roll, and the diagnosis of a proposed play.

Vocabulary (python-chess style: a position plus its legal moves, pushing one gives a new
position):

* a :class:`Step` is one checker moving by one die: ``(src, dst, hit, die)`` in the
  **mover's own indices** (25 = bar, 0 = off; see :mod:`scoring.rules.board`); ``hit``
  says an opposing blot was sent to the bar; ``die`` is the pip value consumed (it can
  exceed ``src - dst`` when bearing off from below the die's point);
* a :class:`Play` is the whole turn: a tuple of steps and the resulting
  :class:`~scoring.rules.board.Position` with the turn passed. A forced pass (Ø) is a
  ``Play`` with no steps.

Main entry points:

``legal_plays(position, dice) -> list[Play]``
    one play per *distinct resulting position* (like GNU Backgammon), all rules of
    RULES.md §2–3: both dice if possible else the larger, doubles as far as possible, bar
    first, hits, bear-off (exact, or from the highest point with a larger die), the
    book's exact bear-off in short nardy and Caucasian nardy (ch8 r22, r26: with 6-1
    and a checker on the 6 point, no ``6/5/off``; see
    :attr:`~scoring.rules.variants.Variant.exact_bear_off`), the Caucasian no-hide rule, and for long nardy no hitting, one checker off the head per
    turn with the first-turn doubles exception (ch9 r4), and the six-prime rules r5/r6
    (karzar: r6 only). Always returns at least one play (a pass when nothing is legal).

``check_play(position, dice, steps) -> PlayCheck``
    for the record replayer: given the steps a record prints, either the resulting
    position (``check.ok``) or a list of :class:`~scoring.rules.errors.Problem` saying
    *why* it is illegal, with codes listed in :data:`PROBLEM_CODES`. A printed step may
    span several dice (``13/8`` for 3-2 or ``24/16`` for 4-4); it is split into single
    steps through open points. ``hit=None`` means "not stated"; a printed ``*`` where
    nothing can be hit is reported (``nothing_to_hit``), a hit printed without ``*`` is
    accepted (records often omit it). A play is judged by its outcome: printed steps in
    an order the walk cannot follow (``1/off, 2/1`` for 2-1) are still legal when they
    lead to a legal position; and in the games whose rules are all about single steps,
    a walk that uses every die needs no generation at all (the replayer's hot path).

``apply_steps_unchecked(position, steps) -> Position`` and ``play_unchecked``
    move checkers as told with no rule checks, so a replayer can carry on after a
    misprint whose intent is clear (``play_unchecked`` also says whether every step was
    physically possible and which blots were hit).

Two decisions the book leaves open are fixed here and documented for referees: the
six-prime condition is judged on the position at the end of the play (a prime built and
broken within one turn is allowed), and on a long-nardy first-turn double the first head
checker goes as far as it can before a second one leaves the head (ch9 r4's examples:
3-3 is ``012/09/06/03, 012/09``, never ``012/06(2)``).

``legal_end_positions(position, dice) -> list[Position]``
    the resulting positions only (the fast path; ``[]`` for a dance, like gnubg).

Speed: the backgammon family without the Caucasian rule uses dedicated generators — two
dice: the independent single steps of each die paired up, skipping the three known ways
two pairs reach the same result (no keys, no dictionary); doubles: steps in
non-increasing source order, which reaches every result exactly once, as four nested
loops; the step-by-step search only where the bar or bearing off makes a later die
depend on an earlier one — with pre-built :class:`Step` objects and no per-step
allocation. In the middle game :func:`legal_end_positions` runs copies of the two-dice
and four-step enumerations that build the positions directly (no steps, no second
pass; the opponent's board after each set of hits is built once, on demand). The other games (and short nardy once it may bear off, for the exact
bear-off rule) use a general search with memoisation. Both are cross-checked in the
tests, and against GNU Backgammon. ``bench/legal_moves.py`` measures them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from operator import itemgetter
from typing import NamedTuple

from scoring.rules.bear_off import exact_bear_off_may_apply, exact_bear_off_owed
from scoring.rules.board import (
    BAR,
    BLACK,
    OFF,
    SIDE_NAMES,
    WHITE,
    Position,
    index_to_label,
    is_game_over,
    opposite_table,
)
from scoring.rules.errors import Problem
from scoring.rules.record_problems import RECORD
from scoring.rules.variants import HEAD, Variant, get_variant


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


# ------------------------------------------------------------------------------------------
# Fast generator: backgammon, short nardy, nackgammon, hypergammon.
# ------------------------------------------------------------------------------------------


def _mirror(opp_t: tuple[int, ...]) -> list[int]:
    """The opponent's counts indexed by *our* point (short geometry: their 25 - i)."""
    m = list(opp_t[24:0:-1])
    m.insert(0, 0)
    m.append(0)
    return m


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


def _with_hits(raw: list) -> list:
    """``(steps, board)`` results of the step-by-step searches as ``(steps, board, hits)``."""
    return [(st, board, _hits_of(st)) for st, board in raw]


def _gen_short(me_t: tuple[int, ...], opp_t: tuple[int, ...], d1: int, d2: int) -> list:
    """Distinct results as ``(steps, mover_board, hit_bits)`` for the backgammon family.

    Dispatches to closed-form enumerations for the common middle-game cases and to the
    step-by-step search when the bar or bearing off can change what a later die may do.
    """
    outside = sum(me_t[7:])
    bar = me_t[25]
    if not bar:
        if d1 != d2 and outside >= 2:
            return _two_dice_fast(me_t, opp_t, d1, d2)
        if d1 == d2 and outside >= 4:
            found = _doubles_fast(me_t, opp_t, d1)
            if found is not None:
                return found
    elif d1 != d2:
        return _with_hits(_two_dice_from_bar(me_t, opp_t, d1, d2))
    else:
        # Doubles from the bar: entering is forced; an entered checker is still outside
        # home, so nobody bears off when ``outside`` covers the steps left.
        e = 25 - d1
        if opp_t[d1] > 1:
            return []
        n = min(bar, 4)
        board = list(me_t)
        board[25] -= n
        board[e] += n
        hit = opp_t[d1] == 1
        prefix = (_STEP_CACHE[25, e, hit, d1],) + (_STEP_CACHE[25, e, False, d1],) * (n - 1)
        if n == 4 or board[25]:
            return [(prefix, tuple(board), (1 << e) if hit else 0)]
        if outside >= 4 - n:
            opp = opp_t
            if hit:
                o = list(opp_t)
                o[d1] = 0
                opp = tuple(o)
            rest = _doubles_fast(tuple(board), opp, d1, 4 - n)
            if rest is not None:
                first_hit = (1 << e) if hit else 0
                return [(prefix + st, b, h | first_hit) for st, b, h in rest]
    return _with_hits(_gen_short_slow(me_t, opp_t, d1, d2))


def _two_dice_from_bar(me: tuple[int, ...], opp_t: tuple[int, ...], a: int, b: int) -> list:
    """Non-doubles with checkers on the bar (entering keeps them outside: no bear-off)."""
    cache = _STEP_CACHE
    if me[25] > 1:
        open_a = opp_t[a] < 2
        open_b = opp_t[b] < 2
        board = list(me)
        steps = []
        for die, ok in ((a, open_a), (b, open_b)) if a > b else ((b, open_b), (a, open_a)):
            if ok:
                e = 25 - die
                hit = opp_t[die] == 1 and board[e] == me[e]
                steps.append(cache[25, e, hit, die])
                board[25] -= 1
                board[e] += 1
        if not steps:
            return []
        if len(steps) == 1 and open_a and open_b:
            pass  # unreachable: two open entry points and two checkers enter both
        return [(tuple(steps), tuple(board))]
    W = _W
    H = _H
    opm = [0] * 26
    for i in range(1, 25):
        opm[i] = opp_t[25 - i]
    full: dict[int, tuple] = {}
    half: dict[int, tuple] = {}
    for x, y in ((a, b), (b, a)):
        e = 25 - x
        if opm[e] > 1:
            continue
        h1 = opm[e] == 1
        k1 = W[e] - W[25] + (H[e] if h1 else 0)
        first = cache[25, e, h1, x]
        any2 = False
        for s in range(24, 0, -1):
            c = me[s] + (1 if s == e else 0)
            if not c:
                continue
            t = s - y
            if t < 1 or opm[t] > 1:
                continue
            h2 = opm[t] == 1 and not (h1 and t == e)
            k = k1 + W[t] - W[s] + (H[t] if h2 else 0)
            any2 = True
            if k not in full:
                board = list(me)
                board[25] -= 1
                board[e] += 1
                board[s] -= 1
                board[t] += 1
                full[k] = ((first, cache[s, t, h2, y]), tuple(board))
        if not any2:
            board = list(me)
            board[25] -= 1
            board[e] += 1
            half[x] = ((first,), tuple(board))
    if full:
        return list(full.values())
    if not half:
        return []
    return [half[max(half)]]


def _two_dice_fast(me: tuple[int, ...], opp_t: tuple[int, ...], a: int, b: int) -> list:
    """Non-doubles with nothing on the bar and nobody able to bear off this turn.

    Then each die's legal single steps do not depend on the other's, except that a
    lone checker cannot move twice from its point and a checker may continue (a chain),
    so the results are the pairs of independent steps plus the two chains. Two of those
    reach the same result (board and hit blots) only in three known ways, which are
    skipped instead of being found with a dictionary (for a checker on ``x``):

    * the pair ``a`` from ``x - b``, ``b`` from ``x`` equals the ``a``-then-``b`` move of
      ``x`` (a chain, or the pair ``a`` from ``x``, ``b`` from ``x - a``) unless that
      passes over a blot on ``x - a``;
    * the chain ``a``-then-``b`` from ``x`` equals the pair ``a`` from ``x``, ``b`` from
      ``x - a`` when an own checker stands on ``x - a``;
    * the chain ``b``-then-``a`` from ``x`` equals one of the above unless it hits a blot
      on ``x - b`` or nothing lawful passes through ``x - a`` without a hit.

    The first of equal results is kept, so the order is the plain enumeration order.
    """
    cache = _STEP_CACHE
    opm = _mirror(opp_t)
    la: list[tuple] = []
    lb: list[tuple] = []
    for s in range(24, 0, -1):
        if me[s]:
            t = s - a
            if t >= 1 and opm[t] < 2:
                if opm[t]:
                    la.append((s, t, cache[s, t, True, a], 1 << t))
                else:
                    la.append((s, t, cache[s, t, False, a], 0))
            t = s - b
            if t >= 1 and opm[t] < 2:
                if opm[t]:
                    lb.append((s, t, cache[s, t, True, b], 1 << t))
                else:
                    lb.append((s, t, cache[s, t, False, b], 0))
    res: list[tuple] = []
    append = res.append
    base = list(me)
    for s1, t1, st1, hb1 in la:
        lone = me[s1] == 1
        b1 = base.copy()
        b1[s1] -= 1
        b1[t1] += 1
        for s2, t2, st2, hb2 in lb:
            if s2 == s1 and lone:
                continue
            if t2 == s1 and not opm[s2 - a]:
                continue  # the a-then-b move of s2, already listed
            board = b1.copy()
            board[s2] -= 1
            board[t2] += 1
            if hb2 and t2 == t1 and hb1:  # the blot on t1 is already gone
                append(((st1, cache[s2, t2, False, b]), tuple(board), hb1))
            else:
                append(((st1, st2), tuple(board), hb1 | hb2))
        u = t1 - b
        if u >= 1 and opm[u] < 2 and not me[t1]:
            board = b1
            board[t1] -= 1
            board[u] += 1
            if opm[u]:
                append(((st1, cache[t1, u, True, b]), tuple(board), hb1 | (1 << u)))
            else:
                append(((st1, cache[t1, u, False, b]), tuple(board), hb1))
    for s1, t1, st1, hb1 in lb:
        u = t1 - a
        if u >= 1 and opm[u] < 2 and (hb1 or (opm[s1 - a] and not me[t1])):
            board = base.copy()
            board[s1] -= 1
            board[u] += 1
            if opm[u]:
                append(((st1, cache[t1, u, True, a]), tuple(board), hb1 | (1 << u)))
            else:
                append(((st1, cache[t1, u, False, a]), tuple(board), hb1))
    if res:
        return res
    out = []
    # Only one die can be played: the larger one if it can.
    lbig, lsmall = (la, lb) if a > b else (lb, la)
    for s, t, st, hb in lbig or lsmall:
        board = list(me)
        board[s] -= 1
        board[t] += 1
        out.append(((st,), tuple(board), hb))
    return out


def _doubles_fast(
    me: tuple[int, ...], opp_t: tuple[int, ...], d: int, steps: int = 4
) -> list | None:
    """Doubles with nothing on the bar and at least ``steps`` checkers outside home.

    No checker can bear off, so taking the steps in non-increasing order of their source
    point reaches every result exactly once (the multiset of sources is the play), and
    no deduplication is needed; a checker that arrives on a point can still leave it
    later because its source is higher. Returns ``None`` when not all ``steps`` can be
    played (rare), so the caller falls back to the step-by-step search, which also finds
    the largest number playable.
    """
    moves = _double_moves(me, opp_t, d)
    if not moves:
        return None
    n = len(moves)
    if steps == 4:
        return _four_steps(me, moves) or None
    board = list(me)
    seq: list[Step] = []
    found: list = []

    def rec(j0: int, prev: int, left: int, hits: int) -> None:
        for j in range(j0, n):
            p, q, first, more, bit = moves[j]
            if not board[p]:
                continue
            board[p] -= 1
            board[q] += 1
            if p == prev:
                seq.append(more)
                h = hits
            else:
                seq.append(first)
                h = hits | bit
            if left == 1:
                found.append((tuple(seq), tuple(board), h))
            else:
                rec(j, p, left - 1, h)
            seq.pop()
            board[p] += 1
            board[q] -= 1

    rec(0, 0, steps, 0)
    return found or None


def _double_moves(me: tuple[int, ...], opp_t: tuple[int, ...], d: int) -> list[tuple]:
    """The points a double ``d`` can move from, highest first, with their steps.

    A point counts when a checker is there now or can arrive from ``p + d``, and ``p - d``
    is open. Each entry is ``(src, dst, first step, later step, hit bit)``: only the
    first step from a point can hit the blot below it.
    """
    opm = _mirror(opp_t)
    movable = [False] * 26
    cache = _STEP_CACHE
    moves = []
    for p in range(24, d, -1):
        q = p - d
        if opm[q] < 2 and (me[p] or (p + d <= 24 and movable[p + d])):
            movable[p] = True
            if opm[q]:
                moves.append((p, q, cache[p, q, True, d], cache[p, q, False, d], 1 << q))
            else:
                step = cache[p, q, False, d]
                moves.append((p, q, step, step, 0))
    return moves


def _four_steps(me: tuple[int, ...], moves: list[tuple]) -> list:
    """All four steps of a double, as :func:`_doubles_fast`'s search unrolled into loops.

    ``moves`` lists the movable points in descending order as ``(src, dst, first step,
    later step, hit bit)``: only the first step from a point can hit the blot below it.
    Four plain nested loops (no recursion, no step stack) because this is the bulk of
    the doubles' cost; the results come in the same order as the recursive search's.
    """
    board = list(me)
    found: list = []
    append = found.append
    n = len(moves)
    for j1 in range(n):
        p1, q1, s1, _m1, h1 = moves[j1]
        if not board[p1]:
            continue
        board[p1] -= 1
        board[q1] += 1
        for j2 in range(j1, n):
            p2, q2, f2, m2, b2 = moves[j2]
            if not board[p2]:
                continue
            if p2 == p1:
                s2, h2 = m2, h1
            else:
                s2, h2 = f2, h1 | b2
            board[p2] -= 1
            board[q2] += 1
            for j3 in range(j2, n):
                p3, q3, f3, m3, b3 = moves[j3]
                if not board[p3]:
                    continue
                if p3 == p2:
                    s3, h3 = m3, h2
                else:
                    s3, h3 = f3, h2 | b3
                board[p3] -= 1
                board[q3] += 1
                for p4, q4, f4, m4, b4 in moves[j3:]:
                    if not board[p4]:
                        continue
                    board[p4] -= 1
                    board[q4] += 1
                    if p4 == p3:
                        append(((s1, s2, s3, m4), tuple(board), h3))
                    else:
                        append(((s1, s2, s3, f4), tuple(board), h3 | b4))
                    board[p4] += 1
                    board[q4] -= 1
                board[p3] += 1
                board[q3] -= 1
            board[p2] += 1
            board[q2] -= 1
        board[p1] += 1
        board[q1] -= 1
    return found


def _gen_short_slow(me_t: tuple[int, ...], opp_t: tuple[int, ...], d1: int, d2: int) -> list:
    """Step-by-step search: distinct ``(steps, mover_board)``; [] when nothing moves."""
    me = list(me_t)
    opm = [0] * 26
    for i in range(1, 25):
        opm[i] = opp_t[25 - i]
    outside = sum(me_t[7:26])
    key0 = 0
    for i in range(26):
        if me_t[i]:
            key0 += me_t[i] * _W[i]
    W = _W
    H = _H

    if d1 != d2:
        full: dict[int, tuple] = {}
        half: dict[int, tuple] = {}
        srcs0 = [s for s in range(25, 0, -1) if me_t[s]]
        for a, b in ((d1, d2), (d2, d1)):
            for s in srcs0:
                if me[25] and s != 25:
                    break
                # -- first step s -> t with die a
                if s == 25:
                    t = 25 - a
                    if opm[t] > 1:
                        continue
                else:
                    t = s - a
                    if t > 0:
                        if opm[t] > 1:
                            continue
                    else:
                        if outside:
                            continue
                        if t < 0:
                            higher = False
                            for j in range(s + 1, 7):
                                if me[j]:
                                    higher = True
                                    break
                            if higher:
                                continue
                            t = 0
                me[s] -= 1
                me[t] += 1
                k1 = key0 + W[t] - W[s]
                hit1 = t > 0 and opm[t] == 1
                if hit1:
                    opm[t] = 0
                    k1 += H[t]
                moved_in = s > 6 and t <= 6
                if moved_in:
                    outside -= 1
                step1 = Step(s, t, hit1, a)
                # -- second step with die b
                any2 = False
                srcs = (
                    srcs0
                    if (t == 0 or me[t] > 1 or t in srcs0)
                    else sorted(srcs0 + [t], reverse=True)
                )
                for s2 in srcs:
                    if not me[s2]:
                        continue
                    if me[25] and s2 != 25:
                        break
                    if s2 == 25:
                        t2 = 25 - b
                        if opm[t2] > 1:
                            continue
                    else:
                        t2 = s2 - b
                        if t2 > 0:
                            if opm[t2] > 1:
                                continue
                        else:
                            if outside:
                                continue
                            if t2 < 0:
                                higher = False
                                for j in range(s2 + 1, 7):
                                    if me[j]:
                                        higher = True
                                        break
                                if higher:
                                    continue
                                t2 = 0
                    any2 = True
                    k2 = k1 + W[t2] - W[s2]
                    hit2 = t2 > 0 and opm[t2] == 1
                    if hit2:
                        k2 += H[t2]
                    if k2 not in full:
                        me[s2] -= 1
                        me[t2] += 1
                        full[k2] = ((step1, Step(s2, t2, hit2, b)), tuple(me))
                        me[s2] += 1
                        me[t2] -= 1
                if not any2 and not full and k1 not in half:
                    half[k1] = ((step1,), tuple(me))
                if moved_in:
                    outside += 1
                if hit1:
                    opm[t] = 1
                me[s] += 1
                me[t] -= 1
        if full:
            return list(full.values())
        if not half:
            return []
        big = max(d1, d2)
        larger = [r for r in half.values() if r[0][0].die == big]
        return larger or list(half.values())

    # Doubles: steps in non-increasing source order reach every result exactly once as a
    # multiset of steps (moving the farther checker first never hurts: points only open up
    # as blots are hit, and bearing off only gets easier); the key removes the rest.
    d = d1
    levels: list[dict[int, tuple]] = [{}, {}, {}, {}, {}]
    steps: list[Step] = []
    state = [key0, outside]

    def rec(depth: int, hi: int) -> None:
        key, out = state
        found = False
        if me[25]:
            cands = (25,)
        else:
            cands = range(min(hi, 24), 0, -1)
        for s in cands:
            if not me[s]:
                continue
            if s == 25:
                t = 25 - d
                if opm[t] > 1:
                    break
            else:
                t = s - d
                if t > 0:
                    if opm[t] > 1:
                        continue
                else:
                    if out:
                        continue
                    if t < 0:
                        higher = False
                        for j in range(s + 1, 7):
                            if me[j]:
                                higher = True
                                break
                        if higher:
                            continue
                        t = 0
            found = True
            hit = t > 0 and opm[t] == 1
            nk = key + W[t] - W[s]
            if hit:
                nk += H[t]
                opm[t] = 0
            me[s] -= 1
            me[t] += 1
            moved_in = s > 6 and t <= 6
            steps.append(Step(s, t, hit, d))
            if depth == 3:
                lv = levels[4]
                if nk not in lv:
                    lv[nk] = (tuple(steps), tuple(me))
            else:
                state[0] = nk
                state[1] = out - 1 if moved_in else out
                rec(depth + 1, s)
                state[0] = key
                state[1] = out
            steps.pop()
            me[s] += 1
            me[t] -= 1
            if hit:
                opm[t] = 1
        if not found and depth:
            lv = levels[depth]
            if key not in lv:
                lv[key] = (tuple(steps), tuple(me))

    rec(0, 25)
    for depth in (4, 3, 2, 1):
        if levels[depth]:
            return list(levels[depth].values())
    return []


# ------------------------------------------------------------------------------------------
# General generator: every variant (Caucasian rule, long nardy head/prime rules).
# ------------------------------------------------------------------------------------------


def _illegal_prime(
    v: Variant, me: list[int] | tuple[int, ...], opp_t: tuple[int, ...]
) -> tuple[int, int] | None:
    """The first run of 6+ closed points (in the opponent's path) that r5/r6 forbid.

    Returned as ``(low, high)`` in the *opponent's* indices; ``None`` if all is lawful.
    """
    if v.prime_rule == "none":
        return None
    omap = opposite_table(v.geometry)
    entered_home = opp_t[0] > 0 or any(opp_t[1:7])  # r6: an opposing checker is home
    if entered_home:
        return None
    run_start = 0
    run = 0
    for b in range(1, 25):
        if me[omap[b]] > 0:
            if run == 0:
                run_start = b
            run += 1
        else:
            if run >= 6 and not _prime_allowed(v, run_start, opp_t):
                return (run_start, b - 1)
            run = 0
    if run >= 6 and not _prime_allowed(v, run_start, opp_t):
        return (run_start, 24)
    return None


def _prime_allowed(v: Variant, low: int, opp_t: tuple[int, ...]) -> bool:
    """r5: some opposing checker has already passed the prime (is 'ahead' of it)."""
    if v.prime_rule != "jang":
        return False
    return any(opp_t[1:low])


def _first_turn_double(v: Variant, me_t: tuple[int, ...], opm: list[int], d: int) -> list:
    """ch9 r4: the first head checker goes as far as it can, a second one plays the rest."""
    me = list(me_t)
    steps: list[Step] = []
    for checker in range(2):
        s = HEAD
        while len(steps) < 4:
            t = s - d
            if t < 1 or opm[t] > 0:
                break
            me[s] -= 1
            me[t] += 1
            steps.append(Step(s, t, False, d))
            s = t
        if checker == 0 and len(steps) == 4:
            break
    if not steps:
        return []
    return [(tuple(steps), tuple(me))]


def _gen_general(
    v: Variant, me_t: tuple[int, ...], opp_t: tuple[int, ...], d1: int, d2: int
) -> list:
    omap = opposite_table(v.geometry)
    opm = [0] * 26
    for i in range(1, 25):
        opm[i] = opp_t[omap[i]]
    closed = 2 if v.hitting else 1
    if v.head_rule and d1 == d2 and me_t[HEAD] == v.checkers:
        return _first_turn_double(v, me_t, opm, d1)
    me = list(me_t)
    key0 = sum(me_t[i] * _W[i] for i in range(26))
    # candidates[depth][key] = (steps, board, dice-used)
    nodes: dict[tuple[int, int], tuple] = {}
    seen: set = set()
    steps: list[Step] = []
    caucasian = v.caucasian
    head_rule = v.head_rule
    exact = v.exact_bear_off

    def rec(key: int, rest: tuple[int, ...], head_used: int, taint: tuple[int, ...]) -> None:
        depth = len(steps)
        if (depth, key) not in nodes:
            nodes[(depth, key)] = (tuple(steps), tuple(me))
        if not rest:
            return
        out = any(me[7:26])
        tried: set[int] = set()
        for di, d in enumerate(rest):
            if d in tried:
                continue
            tried.add(d)
            nrest = rest[:di] + rest[di + 1 :]
            sources = (25,) if me[25] else [s for s in range(24, 0, -1) if me[s]]
            for s in sources:
                if s == 25:
                    t = 25 - d
                    if opm[t] >= closed:
                        continue
                else:
                    if head_rule and s == HEAD and head_used:
                        continue
                    t = s - d
                    if t > 0:
                        if opm[t] >= closed:
                            continue
                    else:
                        if out:
                            continue
                        if t < 0:
                            if any(me[s + 1 : 7]):
                                continue
                            t = 0
                if exact and not out and exact_bear_off_owed(me, s, d, nrest):
                    continue
                hit = t > 0 and opm[t] == 1 and v.hitting
                # Caucasian: which checker leaves s — an untainted one if any, and also a
                # tainted (just-hit-with) one when that is allowed and changes the state.
                options: list[tuple[int, ...]] = []
                if caucasian:
                    tainted = taint.count(s)
                    own_there = t > 0 and me[t] > 0
                    new_taint = list(taint)
                    if me[s] > tainted:
                        nt = list(taint)
                        if hit and t <= 6:
                            nt.append(t)
                        options.append(tuple(sorted(nt)))
                    if tainted and not own_there:
                        nt = list(taint)
                        nt.remove(s)
                        if t > 0:
                            nt.append(t)
                        options.append(tuple(sorted(nt)))
                    del new_taint
                else:
                    options.append(taint)
                nk = key + _W[t] - _W[s] + (_H[t] if hit else 0)
                nh = head_used + (1 if head_rule and s == HEAD else 0)
                for ntaint in dict.fromkeys(options):
                    state = (nk, nrest, nh, ntaint)
                    if state in seen:
                        continue
                    seen.add(state)
                    me[s] -= 1
                    me[t] += 1
                    if hit:
                        opm[t] = 0
                    steps.append(Step(s, t, hit, d))
                    rec(nk, nrest, nh, ntaint)
                    steps.pop()
                    if hit:
                        opm[t] = 1
                    me[s] += 1
                    me[t] -= 1

    dice = (d1,) * 4 if d1 == d2 else (d1, d2)
    rec(key0, dice, 0, ())
    best: dict[int, tuple] = {}
    best_depth = 0
    for (depth, key), (st, board) in nodes.items():
        if depth < best_depth or depth == 0:
            continue
        if v.prime_rule != "none" and _illegal_prime(v, board, opp_t):
            continue
        if depth > best_depth:
            best_depth = depth
            best = {}
        if key not in best:
            best[key] = (st, board)
    if not best:
        return []
    if best_depth == 1 and d1 != d2:
        big = max(d1, d2)
        larger = [r for r in best.values() if r[0][0].die == big]
        if larger:
            return larger
    return list(best.values())


# ------------------------------------------------------------------------------------------
# Public API
# ------------------------------------------------------------------------------------------


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
            ob = list(opp)
            bits = hit_bits
            while bits:  # one pass per hit blot, lowest point first
                low = bits & -bits
                ob[omap[low.bit_length() - 1]] -= 1
                ob[BAR] += 1
                bits ^= low
            after[hit_bits] = tuple(ob)
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


class _HitOpponents(dict):
    """``{hit_bits: the opponent's board after those blots were hit}``, built on demand.

    For the short geometry only (our point ``t`` is the opponent's ``25 - t``).
    """

    __slots__ = ("opp",)

    def __missing__(self, bits: int) -> tuple[int, ...]:
        board = list(self.opp)
        left = bits
        while left:
            low = left & -left
            board[26 - low.bit_length()] -= 1  # our point t is their 25 - t
            board[BAR] += 1
            left ^= low
        after = self[bits] = tuple(board)
        return after


def _hit_opponents(opp: tuple[int, ...]) -> _HitOpponents:
    after = _HitOpponents()
    after.opp = opp
    after[0] = opp
    return after


def _end_two_dice(
    position: Position, me: tuple[int, ...], opp_t: tuple[int, ...], a: int, b: int
) -> list[Position]:
    """:func:`_two_dice_fast` building the positions directly (no steps, no second pass).

    The same enumeration and the same skipped coincidences, so the same positions in
    the same order; ``[]`` when no pair of steps exists (the caller then asks the
    general path, which knows which single die must be played).
    """
    white = position.turn == WHITE
    turn = 1 - position.turn
    variant = position.variant
    new = _new_tuple
    cls = Position
    after = _hit_opponents(opp_t)
    opm = _mirror(opp_t)
    la: list[tuple] = []
    lb: list[tuple] = []
    for s in range(24, 0, -1):
        if me[s]:
            t = s - a
            if t >= 1 and opm[t] < 2:
                la.append((s, t, (1 << t) if opm[t] else 0))
            t = s - b
            if t >= 1 and opm[t] < 2:
                lb.append((s, t, (1 << t) if opm[t] else 0))
    res: list[Position] = []
    append = res.append
    base = list(me)
    for s1, t1, hb1 in la:
        lone = me[s1] == 1
        b1 = base.copy()
        b1[s1] -= 1
        b1[t1] += 1
        for s2, t2, hb2 in lb:
            if s2 == s1 and lone:
                continue
            if t2 == s1 and not opm[s2 - a]:
                continue
            board = b1.copy()
            board[s2] -= 1
            board[t2] += 1
            h = hb1 | hb2  # one bit per point: a blot hit twice is hit once
            if white:
                append(new(cls, (tuple(board), after[h], turn, variant)))
            else:
                append(new(cls, (after[h], tuple(board), turn, variant)))
        u = t1 - b
        if u >= 1 and opm[u] < 2 and not me[t1]:
            b1[t1] -= 1
            b1[u] += 1
            h = hb1 | (1 << u) if opm[u] else hb1
            if white:
                append(new(cls, (tuple(b1), after[h], turn, variant)))
            else:
                append(new(cls, (after[h], tuple(b1), turn, variant)))
    for s1, t1, hb1 in lb:
        u = t1 - a
        if u >= 1 and opm[u] < 2 and (hb1 or (opm[s1 - a] and not me[t1])):
            board = base.copy()
            board[s1] -= 1
            board[u] += 1
            h = hb1 | (1 << u) if opm[u] else hb1
            if white:
                append(new(cls, (tuple(board), after[h], turn, variant)))
            else:
                append(new(cls, (after[h], tuple(board), turn, variant)))
    return res


def _end_four_steps(
    position: Position, me: tuple[int, ...], opp_t: tuple[int, ...], moves: list[tuple]
) -> list[Position]:
    """:func:`_four_steps` building the positions directly; ``[]`` if four cannot be played."""
    white = position.turn == WHITE
    turn = 1 - position.turn
    variant = position.variant
    new = _new_tuple
    cls = Position
    after = _hit_opponents(opp_t)
    board = list(me)
    found: list[Position] = []
    append = found.append
    n = len(moves)
    for j1 in range(n):
        p1, q1, _f1, _m1, h1 = moves[j1]
        if not board[p1]:
            continue
        board[p1] -= 1
        board[q1] += 1
        for j2 in range(j1, n):
            p2, q2, _f2, _m2, b2 = moves[j2]
            if not board[p2]:
                continue
            h2 = h1 | b2
            board[p2] -= 1
            board[q2] += 1
            for j3 in range(j2, n):
                p3, q3, _f3, _m3, b3 = moves[j3]
                if not board[p3]:
                    continue
                h3 = h2 | b3
                board[p3] -= 1
                board[q3] += 1
                for p4, q4, _f4, _m4, b4 in moves[j3:]:
                    if board[p4]:
                        board[p4] -= 1
                        board[q4] += 1
                        if white:
                            append(new(cls, (tuple(board), after[h3 | b4], turn, variant)))
                        else:
                            append(new(cls, (after[h3 | b4], tuple(board), turn, variant)))
                        board[p4] += 1
                        board[q4] -= 1
                board[p3] += 1
                board[q3] -= 1
            board[p2] += 1
            board[q2] -= 1
        board[p1] += 1
        board[q1] -= 1
    return found


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


def _position_legal_plays(self: Position, dice: tuple[int, int]) -> list[Play]:
    """``position.legal_plays(dice)``: every legal play of the side on roll (see :func:`legal_plays`)."""
    return legal_plays(self, dice)


# The position knows its legal plays, as a python-chess board knows its legal moves. The
# method is attached here because generation lives in this module and board.py must not
# import it back (one direction: moves → board).
Position.legal_plays = _position_legal_plays  # type: ignore[attr-defined]


def max_dice_playable(position: Position, dice: tuple[int, int]) -> int:
    """How many dice (0…4) a legal play of this roll uses."""
    raw = _raw_plays(position, dice)
    return len(raw[0][0]) if raw else 0


def has_legal_move(position: Position, dice: tuple[int, int]) -> bool:
    return bool(_raw_plays(position, dice))


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


def play_unchecked(position: Position, steps: list[Step] | tuple[Step, ...]) -> UncheckedPlay:
    """Move checkers as told without the rules of play, skipping steps with no checker.

    The one place where "just move the checkers" is defined, so that the record replayer
    can carry on after a misprint whose intent is clear and still know whether the printed
    steps were physically possible. A lone opposing checker on a landing point is hit in
    the games that hit; nothing else is checked.
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


# ------------------------------------------------------------------------------------------
# Diagnosis of a proposed play (for the record replayer)
# ------------------------------------------------------------------------------------------

#: Every code :func:`check_play` can report, with what it means.
PROBLEM_CODES: dict[str, str] = {
    "record.game_over": "the game has already ended; no more moves",
    "record.wrong_distance": "the step's length matches no unused die (nor a sum of them); a step "
    "backwards (or nowhere) says so and has ``details['backward']``",
    "record.no_checker": "no own checker on the point the step starts from",
    "record.too_many_borne_off": "bearing off although every checker is already off",
    "record.point_closed": "the step lands on (or passes through) a point the opponent holds",
    "record.bar_first": "a checker on the bar must enter before any other moves",
    "record.bear_off_not_all_home": "bearing off before all checkers are in the home",
    "record.bear_off_higher_point": "bearing off from below the die's point while a checker stands higher",
    "record.hit_forbidden": "a hit is printed in long nardy, where nothing is hit",
    "record.nothing_to_hit": "a hit is printed but no lone opposing checker stands there",
    "record.head_rule": "a second checker taken from the head in one turn",
    "record.prime_rule": "a six-prime built without an opposing checker ahead of it / in its home",
    "record.caucasian_hide": "a checker that hit at home hides on an own point in the same turn",
    "record.exact_bear_off_required": "short nardy: a die matching an occupied home point must bear "
    "off from that point, not be spent inside home first (ch8 r22, r26)",
    "record.larger_die_not_played": "only one die could be played and it had to be the larger",
    "record.not_all_dice_played": "fewer dice played than the rules require (more moves were possible)",
    "record.pass_while_move_exists": "a pass (Ø) although a legal move existed",
}
# A defensive fallback, ``illegal_play``, covers any combination not named above; no
# known position reaches it.


def _only_step_rules(v: Variant) -> bool:
    """True when a play is legal because each step was and all dice are used.

    The head rule's first-turn exception, the six-prime rules and the Caucasian rule look
    at the play as a whole or at other orders of its steps, so there the walk's verdict
    is compared with the generated plays. The exact bear-off is judged step by step too
    (:func:`~scoring.rules.bear_off.exact_bear_off_owed`, in the printed order); only a
    printed order that breaks it needs the other orders, i.e. the generated plays.
    """
    return not (v.head_rule or v.caucasian or v.prime_rule != "none")


class _StepText:
    """``from/to`` labels of a step, formatted only if a message needs them (hot path)."""

    __slots__ = ("a", "b", "name")

    def __init__(self, name: Callable[[int], str], a: int, b: int) -> None:
        self.name = name
        self.a = a
        self.b = b

    def __str__(self) -> str:
        return f"{self.name(self.a)}/{self.name(self.b)}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class PlayCheck(NamedTuple):
    """Outcome of :func:`check_play`: the position (if legal) or the problems found."""

    position: Position | None
    problems: list[Problem]
    steps: tuple[Step, ...]

    @property
    def ok(self) -> bool:
        return self.position is not None and not self.problems


def _lbl(position: Position, index: int, numbering: str) -> str:
    v = get_variant(position.variant)
    return index_to_label(index, position.turn, numbering, v.geometry)


def _problem(code: str, **details: object) -> Problem:
    """A ``record.*`` problem of one play; the replayer adds its move, side and text."""
    return RECORD.problem(code, **details)


def _dice_text(dice: tuple[int, int]) -> str:
    return f"{max(dice)}-{min(dice)}"


def check_play(
    position: Position,
    dice: tuple[int, int],
    steps: list[Step] | tuple[Step, ...],
    numbering: str = "traditional",
) -> PlayCheck:
    """Check the steps a record prints for one turn; see the module docstring.

    ``steps`` use the mover's own indices (convert printed labels with
    :func:`scoring.rules.board.label_to_index`); ``die`` may be left 0 and is inferred.
    ``numbering`` only shapes the point names in the messages. Problems carry ``code``,
    ``en``, ``ru`` and ``details``; the replayer adds move number, side and text.
    """
    d1, d2 = _check_dice(dice)
    v = get_variant(position.variant)
    mover = SIDE_NAMES[position.turn]
    roll = f"{d1}-{d2}" if d1 >= d2 else f"{d2}-{d1}"  # as _dice_text, inline (hot path)
    if position.white[OFF] == v.checkers or position.black[OFF] == v.checkers:
        return PlayCheck(
            None,
            [
                _problem("game_over", mover=mover, roll=roll)
            ],
            tuple(steps),
        )
    # Walk the steps one die at a time, reporting the first thing that breaks.
    omap = opposite_table(v.geometry)
    me = list(position.mover)
    opp = position.opponent
    opm = [0, *[opp[j] for j in omap[1:25]], 0]  # the opponent's checkers, our indices
    hitting, is_long, head_rule, caucasian = v.hitting, v.is_long, v.head_rule, v.caucasian
    closed = 2 if hitting else 1
    new_step = _new_tuple
    unused = dice_list((d1, d2))
    done: list[Step] = []
    exact = v.exact_bear_off
    owed = 0  # the first home point the printed order owes under the exact bear-off
    head_used = 0
    first_turn = v.head_rule and me[HEAD] == v.checkers
    taint: list[int] = []
    problems: list[Problem] = []

    def name(i: int) -> str:
        return _lbl(position, i, numbering)

    for raw_step in steps:
        st = raw_step if isinstance(raw_step, Step) else Step(*raw_step)
        src, dst = st.src, st.dst
        if me[src] <= 0:
            if src == OFF or (dst == OFF and me[OFF] == v.checkers):
                where = _StepText(name, src, dst)
                problems.append(
                    _problem("too_many_borne_off", mover=mover, step=str(where), checkers=v.checkers, src=src)
                )
            else:
                where = _StepText(name, src, dst)
                problems.append(
                    _problem("no_checker", mover=mover, step=str(where), src=src, src_label=name(src))
                )
            break
        if me[BAR] and src != BAR:
            where = _StepText(name, src, dst)
            problems.append(
                _problem("bar_first", mover=mover, step=str(where), count=me[BAR], src=src)
            )
            break
        if is_long and st.hit:
            where = _StepText(name, src, dst)
            problems.append(
                _problem("hit_forbidden", mover=mover, step=str(where), dst=dst)
            )
            break
        # Split the step into single dice.
        dist = src - dst
        if dist <= 0:
            # Still ``wrong_distance`` (no die has a negative length; clients and stored
            # reports key on the code), but said plainly and flagged in the details.
            where = _StepText(name, src, dst)
            problems.append(
                _problem(
                    "wrong_distance",
                    mover=mover,
                    step=str(where),
                    src_label=name(src),
                    dst_label=name(dst),
                    distance=dist,
                    backward=True,
                )
            )
            break
        plan = [dist] if dist in unused else _split(dist, dst == OFF, unused, src)
        if plan is None:
            left = ", ".join(str(x) for x in sorted(set(unused), reverse=True))
            where = _StepText(name, src, dst)
            problems.append(
                _problem(
                    "wrong_distance", mover=mover, step=str(where), roll=roll, left=left, distance=dist
                )
            )
            break
        if len(plan) == 2 and plan[0] != plan[1]:
            mid = src - plan[0]
            if mid > 0 and opm[mid] >= closed:
                plan = plan[::-1]
        broke = False
        cur = src
        final = len(plan) - 1
        for n, die in enumerate(plan):
            last = n == final
            if exact and not owed and not any(me[7:26]):
                rest = list(unused)
                rest.remove(die)
                owed = exact_bear_off_owed(me, cur, die, rest)
            t = cur - die
            if t <= 0:
                if any(me[7:26]):
                    sub = _StepText(name, cur, max(t, 0))
                    problems.append(
                        _problem("bear_off_not_all_home", mover=mover, step=str(sub))
                    )
                    broke = True
                    break
                if t < 0 and any(me[cur + 1 : 7]):
                    high = max(i for i in range(cur + 1, 7) if me[i])
                    sub = _StepText(name, cur, max(t, 0))
                    problems.append(
                        _problem(
                            "bear_off_higher_point",
                            mover=mover,
                            step=str(sub),
                            die=die,
                            high_label=name(high),
                        )
                    )
                    broke = True
                    break
                t = 0
            elif opm[t] >= closed:
                sub = _StepText(name, cur, max(t, 0))
                problems.append(
                    _problem(
                        "point_closed", mover=mover, step=str(sub), dst=t, dst_label=name(t), long=is_long
                    )
                )
                broke = True
                break
            if head_rule and cur == HEAD:
                allowed = 2 if (first_turn and d1 == d2) else 1
                if head_used >= allowed:
                    sub = _StepText(name, cur, max(t, 0))
                    problems.append(
                        _problem("head_rule", mover=mover, step=str(sub), first_turn=False)
                    )
                    broke = True
                    break
                head_used += 1
            hit = hitting and t > 0 and opm[t] == 1
            if caucasian:
                if cur in taint and me[cur] <= taint.count(cur) and t > 0 and me[t] > 0:
                    sub = _StepText(name, cur, max(t, 0))
                    problems.append(
                        _problem("caucasian_hide", mover=mover, step=str(sub))
                    )
                    broke = True
                    break
                if cur in taint and me[cur] <= taint.count(cur):
                    taint.remove(cur)
                    if t > 0:
                        taint.append(t)
                if hit and t <= 6:
                    taint.append(t)
            if last and st.hit and not hit:
                sub = _StepText(name, cur, max(t, 0))
                problems.append(
                    _problem("nothing_to_hit", mover=mover, step=str(sub), dst=t, dst_label=name(t))
                )
                broke = True
                break
            me[cur] -= 1
            me[t] += 1
            if hit:
                opm[t] = 0
            unused.remove(die)
            done.append(new_step(Step, (cur, t, hit, die)))
            cur = t
        if broke:
            break

    if problems:
        # The walk takes the steps in the printed order and gives each the die of its
        # length, so "1/off, 2/1" for 2-1 stumbles although "2/1, 1/off" is the same
        # play. A play is its outcome: if the printed checkers reach a legal position
        # (and every printed "*" really hit), it is legal however it was written.
        same = _same_as_a_legal_play(position, (d1, d2), steps)
        if same is not None:
            return PlayCheck(same.position, [], same.steps)
        return PlayCheck(None, problems, tuple(done))
    done_t = tuple(done)
    if len(done_t) == (4 if d1 == d2 else 2) and not owed and _only_step_rules(v):
        # Every die was played and each step was lawful where it was made: in a game
        # whose rules are all about single steps, that is a legal play, and nothing needs
        # to be generated (the common case when replaying a record). The position after
        # it is built here directly (as _positions_of would, for this one play).
        opp_after = opp
        if hit_bits := _hits_of(done_t):
            ob = list(opp)
            while hit_bits:
                low = hit_bits & -hit_bits
                ob[omap[low.bit_length() - 1]] -= 1
                ob[BAR] += 1
                hit_bits ^= low
            opp_after = tuple(ob)
        if position.turn == WHITE:
            after = new_step(Position, (tuple(me), opp_after, BLACK, position.variant))
        else:
            after = new_step(Position, (opp_after, tuple(me), WHITE, position.variant))
        return new_step(PlayCheck, (after, [], done_t))
    raw = _raw_plays(position, (d1, d2))
    legal = {board_key(st, board): (st, board) for st, board, _hits in raw}
    need = len(raw[0][0]) if raw else 0
    key = board_key(done_t, tuple(me))
    if key in legal:
        st, board = legal[key]
        after = _positions_of(position, [(done_t, board, _hits_of(done_t))])[0]
        return PlayCheck(after, [], done_t)
    if not done and not raw:
        return PlayCheck(position.passed(), [], ())

    used = len(done)
    if used == 0:
        problems.append(
            _problem(
                "pass_while_move_exists",
                mover=mover,
                roll=roll,
                no_roll=False,
                example=_fmt(position, raw[0][0], numbering),
            )
        )
    elif used < need:
        problems.append(
            _problem(
                "not_all_dice_played",
                mover=mover,
                roll=roll,
                played=used,
                required=need,
                example=_fmt(position, raw[0][0], numbering),
            )
        )
    elif owed and _legal_without_exact_bear_off(v, position, dice, key):
        point = owed
        problems.append(
            _problem(
                "exact_bear_off_required",
                mover=mover,
                roll=roll,
                play=_fmt(position, done_t, numbering),
                point=point,
                point_label=name(point) if point else "",
                variant_en=v.name_en,
                variant_ru=v.name_ru,
            )
        )
    elif need == 1 and d1 != d2 and done[0].die != max(d1, d2) and raw[0][0][0].die == max(d1, d2):
        problems.append(
            _problem("larger_die_not_played", mover=mover, roll=roll, larger=max(d1, d2))
        )
    elif v.prime_rule != "none" and (run := _illegal_prime(v, me, position.opponent)):
        lo, hi = run
        omap2 = opposite_table(v.geometry)
        a, b = name(omap2[hi]), name(omap2[lo])
        problems.append(
            _problem(
                "prime_rule",
                mover=mover,
                low=lo,
                high=hi,
                from_label=a,
                to_label=b,
                prime="karzar" if v.prime_rule == "karzar" else "jang",
            )
        )
    elif v.head_rule and first_turn and d1 == d2:
        problems.append(
            _problem(
                "head_rule",
                mover=mover,
                roll=roll,
                first_turn=True,
                example=_fmt(position, raw[0][0], numbering),
            )
        )
    else:
        problems.append(
            _problem(
                "illegal_play", mover=mover, roll=roll, play=_fmt(position, done_t, numbering)
            )
        )
    return PlayCheck(None, problems, done_t)


def _same_as_a_legal_play(
    position: Position, dice: tuple[int, int], steps: list[Step] | tuple[Step, ...]
) -> Play | None:
    """The legal play with the outcome of the printed steps, if there is one."""
    steps = [s if isinstance(s, Step) else Step(*s) for s in steps]
    done = play_unchecked(position, steps)
    if done.missing or any(s.hit and s.dst not in done.hits for s in steps):
        return None
    for play in legal_plays(position, dice):
        if play.steps and play.position == done.position:
            return play
    return None


def _legal_without_exact_bear_off(
    v: Variant, position: Position, dice: tuple[int, int], key: tuple
) -> bool:
    """Would the play be legal under the international bear-off (so that rule is why not)?"""
    plain = replace(v, exact_bear_off=False)
    me, opp = position.mover, position.opponent
    if plain.caucasian:
        raw = _gen_general(plain, me, opp, dice[0], dice[1])
    else:
        raw = _gen_short(me, opp, dice[0], dice[1])
    return any(board_key(r[0], r[1]) == key for r in raw)


def board_key(steps: tuple[Step, ...], board: tuple[int, ...]) -> tuple:
    """Identity of a play's outcome: the mover's board and which points were hit."""
    return (board, tuple(sorted(s.dst for s in steps if s.hit)))


def _split(dist: int, bearing_off: bool, unused: list[int], src: int) -> list[int] | None:
    """Dice (in playing order) that add up to one printed step, or ``None``."""
    if dist in unused:
        return [dist]
    if bearing_off:
        # Bearing off from below a die's point: any larger unused die may do it.
        bigger = sorted(d for d in set(unused) if d > dist)
        if bigger:
            return [bigger[0]]
    vals = sorted(unused, reverse=True)
    if len(set(vals)) == 1 and vals:
        d = vals[0]
        if dist % d == 0 and dist // d <= len(vals):
            return [d] * (dist // d)
        if bearing_off:
            n = -(-dist // d)
            if n <= len(vals):
                return [d] * n
        return None
    if len(vals) == 2 and (sum(vals) == dist or (bearing_off and sum(vals) > dist)):
        return vals
    return None


def _fmt(position: Position, steps: tuple[Step, ...], numbering: str) -> str:
    if not steps:
        return "Ø"
    return ", ".join(
        f"{_lbl(position, s.src, numbering)}/{_lbl(position, s.dst, numbering)}{'*' if s.hit else ''}"
        for s in steps
    )
