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

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from scoring.rules.board.bear_off import exact_bear_off_owed
from scoring.rules.board.generate.general import _gen_general, _illegal_prime
from scoring.rules.board.generate.short import _gen_short
from scoring.rules.board.legal import _raw_plays, legal_plays
from scoring.rules.board.position import (
    BAR,
    BLACK,
    OFF,
    SIDE_NAMES,
    WHITE,
    Position,
    index_to_label,
    opposite_table,
)
from scoring.rules.board.steps import (
    Play,
    Step,
    _check_dice,
    _opponent_after_hits,
    board_key,
    dice_list,
)
from scoring.rules.board.unchecked import play_unchecked
from scoring.rules.errors import Problem
from scoring.rules.problems.record import RECORD
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
    "record.ambiguous_step": "a step spanning two dice passes two open blots: either route hits a "
    "different checker and no ``*`` says which (the readings are listed)",
}
# A defensive fallback, ``illegal_play``, covers any combination not named above; no
# known position reaches it.


def _only_step_rules(v: Variant) -> bool:
    """True when a play is legal because each step was and all dice are used.

    The head rule's first-turn exception, the six-prime rules and the Caucasian rule look
    at the play as a whole or at other orders of its steps, so there the walk's verdict
    is compared with the generated plays. The exact bear-off is judged step by step too
    (:func:`~scoring.rules.board.bear_off.exact_bear_off_owed`, in the printed order); only a
    printed order that breaks it needs the other orders, i.e. the generated plays.
    """
    return not (v.head_rule or v.caucasian or v.prime_rule != "none")


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


class _Walk:
    """Where the printed steps, followed one die at a time, took the checkers.

    ``board`` is the mover's board after the steps that were lawful, ``done`` those steps
    as single dice, ``finding`` the first thing that broke (see :func:`_finding`) or
    ``None``, ``owed`` the first home point the printed order owes under the exact
    bear-off (:func:`~scoring.rules.board.bear_off.exact_bear_off_owed`; 0 if none) and
    ``hit_bits`` one bit per point where a blot was hit.
    """

    __slots__ = ("board", "done", "finding", "hit_bits", "owed")

    def __init__(
        self,
        board: list[int],
        done: list[Step],
        finding: _Finding | None,
        owed: int,
        hit_bits: int,
    ) -> None:
        self.board = board
        self.done = done
        self.finding = finding
        self.owed = owed
        self.hit_bits = hit_bits


#: ``(code, src, dst, details, labels)``: a ``record.*`` code, the step (or the single die
#: of it) that broke, plain details, and ``{detail key: point index}`` to be named in the
#: record's numbering. Kept raw so that the walk never formats text.
_Finding = tuple[str, int, int, dict[str, object], dict[str, int]]


def _finding(
    code: str, src: int, dst: int, labels: dict[str, int] | None = None, /, **details: object
) -> _Finding:
    return (code, src, dst, details, labels or {})


def check_play(
    position: Position,
    dice: tuple[int, int],
    steps: list[Step] | tuple[Step, ...],
    numbering: str = "traditional",
) -> PlayCheck:
    """Check the steps a record prints for one turn; see the module docstring.

    ``steps`` use the mover's own indices (convert printed labels with
    :func:`scoring.rules.board.position.label_to_index`); ``die`` may be left 0 and is inferred.
    ``numbering`` only shapes the point names in the messages. Problems carry ``code``,
    ``en``, ``ru`` and ``details``; the replayer adds move number, side and text.

    Three steps, each its own function: follow the printed steps die by die
    (:func:`_walk`); accept the play if that is enough (every die used in a game whose
    rules are all about single steps: the replayer's hot path) or if it matches a
    generated legal play (:func:`_match_legal_plays`); otherwise say why not
    (:func:`_diagnose`).
    """
    dice = _check_dice(dice)
    v = get_variant(position.variant)
    if position.white[OFF] == v.checkers or position.black[OFF] == v.checkers:
        problem = _problem("game_over", mover=SIDE_NAMES[position.turn], roll=_dice_text(dice))
        return PlayCheck(None, [problem], tuple(steps))
    walk = _walk(position, v, dice, steps)
    done = tuple(walk.done)
    if walk.finding is not None and walk.finding[0] == "ambiguous_step":
        return PlayCheck(None, [_describe(position, numbering, dice, walk.finding)], done)
    if walk.finding is not None:
        # The walk takes the steps in the printed order and gives each the die of its
        # length, so "1/off, 2/1" for 2-1 stumbles although "2/1, 1/off" is the same
        # play. A play is its outcome: if the printed checkers reach a legal position
        # (and every printed "*" really hit), it is legal however it was written.
        same = _same_as_a_legal_play(position, dice, steps)
        if same is not None:
            return PlayCheck(same.position, [], same.steps)
        return PlayCheck(None, [_describe(position, numbering, dice, walk.finding)], done)
    if len(done) == (4 if dice[0] == dice[1] else 2) and not walk.owed and _only_step_rules(v):
        # Every die was played and each step was lawful where it was made: in a game
        # whose rules are all about single steps, that is a legal play, and nothing needs
        # to be generated (the common case when replaying a record).
        return PlayCheck(_position_after(position, walk), [], done)
    return _match_legal_plays(position, v, dice, walk, numbering)


def _walk(position: Position, v: Variant, dice: tuple[int, int], steps: Sequence[Step]) -> _Walk:
    """Follow the printed steps one die at a time, stopping at the first that breaks a rule.

    Why a walk: a record prints steps, and a referee wants the first printed step that is
    wrong and why (no checker there, point closed, bear-off too early, …), which the list
    of legal plays cannot say. A printed step spanning several dice (``13/8`` for 3-2) is
    split by :func:`_split` and taken through an open intermediate point. Hot: this is
    most of the cost of replaying a record, so it is one loop with everything in locals.
    """
    omap = opposite_table(v.geometry)
    me = list(position.mover)
    opp = position.opponent
    opm = [0, *[opp[j] for j in omap[1:25]], 0]  # the opponent's checkers, our indices
    hitting, is_long, head_rule, caucasian = v.hitting, v.is_long, v.head_rule, v.caucasian
    closed = 2 if hitting else 1
    doubles = dice[0] == dice[1]
    unused = dice_list(dice)
    done: list[Step] = []
    exact = v.exact_bear_off
    owed = 0
    hit_bits = 0
    head_used = 0
    first_turn = head_rule and me[HEAD] == v.checkers
    taint: list[int] = []
    for raw_step in steps:
        st = raw_step if isinstance(raw_step, Step) else Step(*raw_step)
        src, dst = st.src, st.dst
        if (
            me[src] <= 0
            or (me[BAR] and src != BAR)
            or (is_long and st.hit)
            or src - dst not in unused
        ):
            found = _printed_step_finding(v, me, st, unused, dice)  # called only if suspect (hot)
            if found is not None:
                return _Walk(me, done, found, owed, hit_bits)
        plan = [src - dst] if src - dst in unused else _split(src - dst, dst == OFF, unused, src)
        assert plan is not None  # _printed_step_finding has said so otherwise
        if len(plan) == 2 and plan[0] != plan[1]:
            mid, other = src - plan[0], src - plan[1]
            if mid > 0 and opm[mid] >= closed:
                plan = plan[::-1]
            elif hitting and mid > 0 and other > 0 and opm[other] < closed:
                # Both routes are open. ch7 marks a hit with "*", so an unmarked step
                # through one blot goes the way that does not hit (as GNU Backgammon
                # writes it too); through two blots either way hits a different checker,
                # and only a printed "*" could say which: the cell is ambiguous.
                if opm[mid] == 1 and opm[other] == 1:
                    labels = {"via_a": mid, "via_b": other, "src_label": src, "dst_label": dst}
                    return _Walk(me, done, _finding("ambiguous_step", src, dst, labels), owed, hit_bits)
                if opm[mid] == 1:
                    plan = plan[::-1]
        cur = src
        final = len(plan) - 1
        for n, die in enumerate(plan):
            if exact and not owed and not any(me[7:26]):
                rest = list(unused)
                rest.remove(die)
                owed = exact_bear_off_owed(me, cur, die, rest)
            t = cur - die
            if t <= 0:
                if any(me[7:26]):
                    return _Walk(
                        me, done, _finding("bear_off_not_all_home", cur, 0), owed, hit_bits
                    )
                if t < 0 and any(me[cur + 1 : 7]):
                    high = max(i for i in range(cur + 1, 7) if me[i])
                    found = _finding("bear_off_higher_point", cur, 0, {"high_label": high}, die=die)
                    return _Walk(me, done, found, owed, hit_bits)
                t = 0
            elif opm[t] >= closed:
                found = _finding("point_closed", cur, t, {"dst_label": t}, dst=t, long=is_long)
                return _Walk(me, done, found, owed, hit_bits)
            if head_rule and cur == HEAD:
                if head_used >= (2 if first_turn and doubles else 1):
                    found = _finding("head_rule", cur, t, first_turn=False)
                    return _Walk(me, done, found, owed, hit_bits)
                head_used += 1
            hit = hitting and t > 0 and opm[t] == 1
            if caucasian:
                if cur in taint and me[cur] <= taint.count(cur):
                    if t > 0 and me[t] > 0:
                        found = _finding("caucasian_hide", cur, t)
                        return _Walk(me, done, found, owed, hit_bits)
                    taint.remove(cur)
                    if t > 0:
                        taint.append(t)
                if hit and t <= 6:
                    taint.append(t)
            if n == final and st.hit and not hit:
                found = _finding("nothing_to_hit", cur, t, {"dst_label": t}, dst=t)
                return _Walk(me, done, found, owed, hit_bits)
            me[cur] -= 1
            me[t] += 1
            if hit:
                opm[t] = 0
                hit_bits |= 1 << t
            unused.remove(die)
            done.append(Step(cur, t, hit, die))
            cur = t
    return _Walk(me, done, None, owed, hit_bits)


def _printed_step_finding(
    v: Variant, me: list[int], st: Step, unused: list[int], dice: tuple[int, int]
) -> _Finding | None:
    """What is wrong with a printed step before its dice are looked at, if anything.

    A checker must stand on its source, the bar goes first, long nardy prints no hits,
    and the step's length must be an unused die or a sum of them. A step backwards is
    still ``wrong_distance`` (no die has a negative length; clients and stored reports
    key on the code), but said plainly and flagged in the details.
    """
    src, dst = st.src, st.dst
    if me[src] <= 0:
        if src == OFF or (dst == OFF and me[OFF] == v.checkers):
            return _finding("too_many_borne_off", src, dst, checkers=v.checkers, src=src)
        return _finding("no_checker", src, dst, {"src_label": src}, src=src)
    if me[BAR] and src != BAR:
        return _finding("bar_first", src, dst, count=me[BAR], src=src)
    if v.is_long and st.hit:
        return _finding("hit_forbidden", src, dst, dst=dst)
    dist = src - dst
    if dist <= 0:
        labels = {"src_label": src, "dst_label": dst}
        return _finding("wrong_distance", src, dst, labels, distance=dist, backward=True)
    if dist not in unused and _split(dist, dst == OFF, unused, src) is None:
        left = ", ".join(str(x) for x in sorted(set(unused), reverse=True))
        return _finding("wrong_distance", src, dst, roll=_dice_text(dice), left=left, distance=dist)
    return None


def _describe(
    position: Position, numbering: str, dice: tuple[int, int], found: _Finding
) -> Problem:
    """The :class:`Problem` for a walk's finding, with its points named in ``numbering``."""
    code, src, dst, details, labels = found
    step = f"{_lbl(position, src, numbering)}/{_lbl(position, dst, numbering)}"
    named = {key: _lbl(position, index, numbering) for key, index in labels.items()}
    return _problem(code, mover=SIDE_NAMES[position.turn], step=step, **details, **named)


def _position_after(position: Position, walk: _Walk) -> Position:
    """The position after a walk that is a legal play (turn passed, hit blots on the bar)."""
    opp = position.opponent
    if walk.hit_bits:
        omap = opposite_table(get_variant(position.variant).geometry)
        opp = _opponent_after_hits(opp, walk.hit_bits, omap)
    if position.turn == WHITE:
        return Position(tuple(walk.board), opp, BLACK, position.variant)
    return Position(opp, tuple(walk.board), WHITE, position.variant)


def _match_legal_plays(
    position: Position, v: Variant, dice: tuple[int, int], walk: _Walk, numbering: str
) -> PlayCheck:
    """Accept the walk if its outcome is a generated legal play, else say why it is not.

    Needed where the rules look at the play as a whole (the head rule's first-turn
    exception, the six-prime rules, the Caucasian rule, an exact bear-off kept by another
    order of the steps) or where the walk did not use every die.
    """
    done = tuple(walk.done)
    raw = _raw_plays(position, dice)
    key = board_key(done, tuple(walk.board))
    if any(board_key(st, board) == key for st, board, _hits in raw):
        return PlayCheck(_position_after(position, walk), [], done)
    if not done and not raw:
        return PlayCheck(position.passed(), [], ())
    return PlayCheck(None, [_diagnose(position, v, dice, walk, raw, key, numbering)], done)


def _diagnose(
    position: Position,
    v: Variant,
    dice: tuple[int, int],
    walk: _Walk,
    raw: list,
    key: tuple,
    numbering: str,
) -> Problem:
    """Why a play whose every step was lawful is still not a legal play, most specific first.

    Too few dice, then the book's exact bear-off, the larger die, the six-prime, the
    first-turn head rule; ``illegal_play`` is a defensive fallback no known position
    reaches.
    """
    d1, d2 = dice
    done = tuple(walk.done)
    mover, roll = SIDE_NAMES[position.turn], _dice_text(dice)
    need = len(raw[0][0]) if raw else 0
    example = _fmt(position, raw[0][0], numbering) if raw else "Ø"
    if not done:
        return _problem(
            "pass_while_move_exists", mover=mover, roll=roll, no_roll=False, example=example
        )
    if len(done) < need:
        return _problem(
            "not_all_dice_played",
            mover=mover,
            roll=roll,
            played=len(done),
            required=need,
            example=example,
        )
    if walk.owed and _legal_without_exact_bear_off(v, position, dice, key):
        return _problem(
            "exact_bear_off_required",
            mover=mover,
            roll=roll,
            play=_fmt(position, done, numbering),
            point=walk.owed,
            point_label=_lbl(position, walk.owed, numbering),
            variant_en=v.name_en,
            variant_ru=v.name_ru,
        )
    larger = max(d1, d2)
    if need == 1 and d1 != d2 and done[0].die != larger and raw[0][0][0].die == larger:
        return _problem("larger_die_not_played", mover=mover, roll=roll, larger=larger)
    if v.prime_rule != "none" and (run := _illegal_prime(v, walk.board, position.opponent)):
        lo, hi = run
        omap = opposite_table(v.geometry)
        return _problem(
            "prime_rule",
            mover=mover,
            low=lo,
            high=hi,
            from_label=_lbl(position, omap[hi], numbering),
            to_label=_lbl(position, omap[lo], numbering),
            prime="karzar" if v.prime_rule == "karzar" else "jang",
        )
    if v.head_rule and d1 == d2 and position.mover[HEAD] == v.checkers:
        return _problem("head_rule", mover=mover, roll=roll, first_turn=True, example=example)
    return _problem("illegal_play", mover=mover, roll=roll, play=_fmt(position, done, numbering))


def _same_as_a_legal_play(
    position: Position, dice: tuple[int, int], steps: list[Step] | tuple[Step, ...]
) -> Play | None:
    """The legal play with the outcome of the printed steps, if there is one."""
    steps = [s if isinstance(s, Step) else Step(*s) for s in steps]
    if not all(_plausible_length(s, dice) for s in steps):
        # Same outcome, but through a point no die reaches (ch9 prints Black's first 3–3
        # as "12/09/6/3": 09 is a misprint, though the checker ends where 12/9/6/3 ends).
        return None
    steps = _workable_order(steps, position)
    done = play_unchecked(position, steps)
    if done.missing or any(s.hit and s.dst not in done.hits for s in steps):
        return None
    for play in legal_plays(position, dice):
        if play.steps and play.position == done.position:
            return play
    return None


def _plausible_length(step: Step, dice: tuple[int, int]) -> bool:
    """Whether a printed step's length can be made of the roll's dice (forward, and a die,
    both dice, or up to four of a double; bearing off may use a larger die)."""
    dist = step.src - step.dst
    if dist <= 0:
        return False
    a, b = dice
    if step.dst == OFF:
        return dist <= (4 * a if a == b else a + b)
    if a == b:
        return dist % a == 0 and dist // a <= 4
    return dist in (a, b, a + b)


def _workable_order(steps: list[Step], position: Position) -> list[Step]:
    """The printed steps in an order the checkers can follow (``02/03, 01/02`` → ``01/02, 02/03``).

    The book prints a turn's moves in any order; the outcome of a set of steps does not
    depend on the order they are made in (the mover's checkers end where they end, and a
    blot is hit by the first checker that lands on it), so any workable order is *the*
    reading. Entering from the bar comes first. Returns the printed order if none works.
    """
    me = list(position.mover)
    pending = list(steps)
    ordered: list[Step] = []
    while pending:
        ready = next(
            (s for s in pending if me[s.src] > 0 and (not me[BAR] or s.src == BAR)),
            None,
        )
        if ready is None:
            return steps
        pending.remove(ready)
        ordered.append(ready)
        me[ready.src] -= 1
        me[ready.dst] += 1
    return ordered


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
    """Steps made from ``position`` as the book prints them (``13/7*, 13/11``), or ``Ø``.

    Also :func:`scoring.rules.records.play_notation.format_play`'s text.
    """
    if not steps:
        return "Ø"
    geometry = get_variant(position.variant).geometry
    turn = position.turn

    def label(index: int) -> str:
        return index_to_label(index, turn, numbering, geometry)

    return ", ".join(f"{label(s.src)}/{label(s.dst)}{'*' if s.hit else ''}" for s in steps)
