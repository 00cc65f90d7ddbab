"""The general legal-play search: every variant and every rule of the book.

A memoised step-by-step search over the order of the dice, used for long nardy and
karzar (no hitting, the head rule with its first-turn doubles, ch9 r4, and the
six-prime rules r5/r6), Caucasian nardy (the no-hide rule) and short nardy once the
exact bear-off may apply (:mod:`scoring.rules.board.bear_off`). Slower than the backgammon
kernels of :mod:`scoring.rules.board.generate.short` and cross-checked against them.
"""

from __future__ import annotations

from scoring.rules.board.bear_off import exact_bear_off_owed
from scoring.rules.board.position import opposite_table
from scoring.rules.board.steps import _H, _W, Step
from scoring.rules.variants import HEAD, Variant


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
