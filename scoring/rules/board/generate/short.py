"""Legal-play generators for the backgammon family (short geometry, no Caucasian rule).

Backgammon, nackgammon, hypergammon, and short nardy while the exact bear-off cannot
bite (:func:`scoring.rules.board.bear_off.exact_bear_off_may_apply`). These are the measured
kernels of ``bench/legal_moves.py``: two dice are the independent single steps of each
die paired up, skipping the three known ways two pairs reach the same result (no keys,
no dictionary); doubles take steps in non-increasing source order, which reaches every
result exactly once, as four nested loops; the step-by-step search is used only where the
bar or bearing off makes a later die depend on an earlier one. Steps are pre-built
(:data:`~scoring.rules.board.steps._STEP_CACHE`), nothing is allocated per step.

In the middle game :func:`_end_two_dice` and :func:`_end_four_steps` are copies of the
two-dice and four-step enumerations that build the positions directly (no steps, no
second pass; the opponent's board after each set of hits is built once, on demand) for
:func:`scoring.rules.board.legal.legal_end_positions`. They are cross-checked against the
step-building versions and against GNU Backgammon in the tests.
"""

from __future__ import annotations

from scoring.rules.board.position import BAR, WHITE, Position
from scoring.rules.board.steps import _H, _STEP_CACHE, _W, Step, _with_hits

#: ``tuple.__new__``: builds a ``Position`` without the NamedTuple's Python-level
#: ``__new__`` inside the kernels (measured in ``bench/legal_moves.py``).
_new_tuple = tuple.__new__


def _mirror(opp_t: tuple[int, ...]) -> list[int]:
    """The opponent's counts indexed by *our* point (short geometry: their 25 - i)."""
    m = list(opp_t[24:0:-1])
    m.insert(0, 0)
    m.append(0)
    return m


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
        return [(tuple(steps), tuple(board))]
    W = _W
    H = _H
    opm = _mirror(opp_t)
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
    opm = _mirror(opp_t)
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
