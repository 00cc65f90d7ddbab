"""Invariants of legal plays over random positions of every variant (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    Position,
    Step,
    check_play,
    is_game_over,
    legal_plays,
    pip_count,
    play_unchecked,
)
from scoring.rules.board.position import opposite_table
from scoring.rules.variants import HEAD, VARIANTS

# What every property draws: a variant, a random game (its seed) to play into, and a roll.
variants = st.sampled_from(sorted(VARIANTS))
seeds = st.integers(0, 10_000)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def reach(variant: str, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = Position.start(variant, seed % 2)
    for _ in range(plies):
        if is_game_over(pos):
            break
        pos = rng.choice(legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))).position
    return pos


def single_step_exists(pos: Position, dice: tuple[int, int]) -> bool:
    """Independent, naive check: could any one die move any checker at all?"""
    v = pos.rules
    me, opp = pos.mover, pos.opponent
    omap = opposite_table(v.geometry)
    closed = 2 if v.hitting else 1
    for d in set(dice):
        sources = [25] if me[25] else [s for s in range(1, 25) if me[s]]
        for s in sources:
            t = s - d
            if t >= 1:
                if opp[omap[t]] < closed:
                    return True
            elif not any(me[7:26]) and (t == 0 or not any(me[s + 1 : 7])):
                return True
    return False


@settings(max_examples=60, deadline=None)
@given(
    variant=variants,
    seed=seeds,
    plies=st.integers(0, 70),
    dice=rolls,
)
def test_legal_play_invariants(variant, seed, plies, dice):
    pos = reach(variant, seed, plies)
    if is_game_over(pos):
        assert legal_plays(pos, dice) == []
        return
    v = VARIANTS[variant]
    plays = legal_plays(pos, dice)
    assert plays
    mover = pos.turn
    rolled = Counter([dice[0]] * 4 if dice[0] == dice[1] else list(dice))
    lengths = {len(p.steps) for p in plays}
    assert len(lengths) == 1  # every legal play uses the same (maximal) number of dice
    assert len({p.position for p in plays}) == len(plays)  # distinct results
    if plays[0].is_pass:
        assert len(plays) == 1 and not single_step_exists(pos, dice)
    else:
        assert single_step_exists(pos, dice)
    for play in plays:
        after = play.position
        assert after.turn == 1 - mover
        assert after.validate() == []  # checker counts per side, no shared points
        used = Counter(s.die for s in play.steps)
        assert all(used[d] <= rolled[d] for d in used)  # no unrolled die
        moved = 0
        for s in play.steps:
            dist = s.src - s.dst
            assert dist == s.die or (s.dst == 0 and dist < s.die)
            moved += dist
        assert pip_count(pos, mover) - pip_count(after, mover) == moved
        if not v.hitting:
            assert not any(s.hit for s in play.steps)
            assert after.board(1 - mover) == pos.board(1 - mover)
        if v.head_rule and not (dice[0] == dice[1] and pos.mover[HEAD] == v.checkers):
            assert sum(1 for s in play.steps if s.src == HEAD) <= 1


@settings(max_examples=150, deadline=None)
@given(
    variant=variants,
    seed=seeds,
    plies=st.integers(0, 90),
    dice=rolls,
    picks=st.lists(st.integers(0, 1_000), min_size=4, max_size=4),
)
def test_check_play_accepts_exactly_the_generated_plays(variant, seed, plies, dice, picks):
    """Random step sequences (rules ignored): check_play says "legal" exactly when the
    generator has the resulting position, whatever shortcut check_play takes."""
    pos = reach(variant, seed, plies)
    if is_game_over(pos):
        return
    me = list(pos.mover)
    steps = []
    rolled = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for die, pick in zip(rolled, picks, strict=False):
        sources = [25] if me[25] else [s for s in range(1, 25) if me[s]]
        if not sources:
            break
        src = sources[pick % len(sources)]
        dst = max(src - die, 0)
        me[src] -= 1
        me[dst] += 1
        steps.append(Step(src, dst, None, die))
    if not steps:
        return
    check = check_play(pos, dice, steps)
    legal = {p.position for p in legal_plays(pos, dice) if not p.is_pass}
    reached = play_unchecked(pos, steps).position
    assert check.ok == (reached in legal), [p.code for p in check.problems]
    if check.ok:
        assert check.position == reached
