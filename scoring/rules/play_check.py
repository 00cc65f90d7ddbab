"""Why a printed play is illegal: :func:`check_play` and the codes it reports.

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

Two decisions the book leaves open are fixed here and documented for referees: the
six-prime condition is judged on the position at the end of the play (a prime built and
broken within one turn is allowed), and on a long-nardy first-turn double the first head
checker goes as far as it can before a second one leaves the head (ch9 r4's examples:
3-3 is ``012/09/06/03, 012/09``, never ``012/06(2)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from scoring.rules.bear_off import exact_bear_off_owed
from scoring.rules.board import (
    BAR,
    BLACK,
    OFF,
    SIDE_NAMES,
    WHITE,
    Position,
    index_to_label,
    opposite_table,
)
from scoring.rules.errors import Problem
from scoring.rules.generate_general import _gen_general, _illegal_prime
from scoring.rules.generate_short import _gen_short
from scoring.rules.legal import _new_tuple, _positions_of, _raw_plays, legal_plays
from scoring.rules.record_problems import RECORD
from scoring.rules.steps import Play, Step, _check_dice, _hits_of, board_key, dice_list
from scoring.rules.unchecked import play_unchecked
from scoring.rules.variants import HEAD, Variant, get_variant

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
            [_problem("game_over", mover=mover, roll=roll)],
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
                    _problem(
                        "too_many_borne_off",
                        mover=mover,
                        step=str(where),
                        checkers=v.checkers,
                        src=src,
                    )
                )
            else:
                where = _StepText(name, src, dst)
                problems.append(
                    _problem(
                        "no_checker", mover=mover, step=str(where), src=src, src_label=name(src)
                    )
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
            problems.append(_problem("hit_forbidden", mover=mover, step=str(where), dst=dst))
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
                    "wrong_distance",
                    mover=mover,
                    step=str(where),
                    roll=roll,
                    left=left,
                    distance=dist,
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
                    problems.append(_problem("bear_off_not_all_home", mover=mover, step=str(sub)))
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
                        "point_closed",
                        mover=mover,
                        step=str(sub),
                        dst=t,
                        dst_label=name(t),
                        long=is_long,
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
                    problems.append(_problem("caucasian_hide", mover=mover, step=str(sub)))
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
            _problem("illegal_play", mover=mover, roll=roll, play=_fmt(position, done_t, numbering))
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
