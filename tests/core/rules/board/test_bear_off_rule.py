"""The exact bear-off is one rule (:mod:`scoring.rules.board.bear_off`); every path agrees with it.

The fast backgammon generators know nothing of the rule and are only used where
:func:`exact_bear_off_may_apply` says it cannot bite; the general search asks
:func:`exact_bear_off_owed` step by step. Here, on every roll, from bear-off positions
of random short-nardy games: where the rule cannot apply, short nardy plays exactly as
backgammon; where it can, the short-nardy plays are exactly those a brute-force search
(every order of the dice, the rule asked at each step) finds (ch8 r25: "или – наоборот").
"""

from __future__ import annotations

import pytest

from scoring.rules import Position, check_play, legal_plays
from scoring.rules.board.bear_off import exact_bear_off_may_apply, exact_bear_off_owed
from scoring.rules.variants import get_variant

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def book_outcomes(pos: Position, dice: tuple[int, int]) -> set[tuple]:
    """Every legal play's outcome by brute force: all dice orders, all sources, the
    international step rules plus :func:`exact_bear_off_owed` at each step once home."""
    seq = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    found: dict[int, set[tuple]] = {}

    def walk(me: list[int], opp: list[int], left: list[int], firsts: tuple[int, ...]) -> None:
        found.setdefault(len(firsts), set()).add((tuple(me), tuple(opp), firsts[:1]))
        home = not any(me[7:26])
        for n, die in enumerate(left):
            rest = left[:n] + left[n + 1 :]
            for src in range(25, 0, -1):
                if not me[src] or (me[25] and src != 25):
                    continue
                dst = src - die
                if dst <= 0:
                    if not home or (dst < 0 and any(me[src + 1 : 7])):
                        continue
                    dst = 0
                elif opp[25 - dst] >= 2:
                    continue
                if home and exact_bear_off_owed(me, src, die, rest):
                    continue
                me2, opp2 = list(me), list(opp)
                me2[src] -= 1
                me2[dst] += 1
                if dst and opp2[25 - dst] == 1:
                    opp2[25 - dst] = 0
                    opp2[25] += 1
                walk(me2, opp2, rest, firsts + (die,))

    walk(list(pos.mover), list(pos.opponent), seq, ())
    most = max(found)
    plays = found[most]
    if most == 1 and dice[0] != dice[1]:
        larger = {p for p in plays if p[2] == (max(dice),)}
        plays = larger or plays
    if most == 0:
        return set()
    return {(me, opp) for me, opp, _ in plays}


def mover_outcome(play) -> tuple:
    after = play.position
    return (after.opponent, after.mover)  # the turn has passed: the mover is now "opponent"


def outcome(pos: Position) -> tuple:
    return (pos.white, pos.black)


def near_bear_off(game_positions, variant: str) -> list[Position]:
    found = {}
    for pos, _dice in game_positions(30, 11, variant):
        if sum(pos.mover[7:]) <= 3 and pos.mover[0] < 15:
            found[outcome(pos) + (pos.turn,)] = pos
    return list(found.values())[:40]


def test_generators_and_the_rule_agree_on_every_roll(game_positions):
    applied = 0
    for pos in near_bear_off(game_positions, "short_nardy"):
        intl = pos._replace(variant="backgammon")
        for dice in ROLLS:
            exact = {mover_outcome(p) for p in legal_plays(pos, dice) if not p.is_pass}
            steps = 4 if dice[0] == dice[1] else 2
            if exact_bear_off_may_apply(get_variant("short_nardy"), pos.mover, steps):
                applied += 1
                assert exact == book_outcomes(pos, dice), (pos, dice)
            else:  # the backgammon generators
                assert exact == {mover_outcome(p) for p in legal_plays(intl, dice) if not p.is_pass}
    assert applied > 100


@pytest.mark.parametrize("dice", ROLLS)
def test_check_play_and_the_generator_agree_under_the_rule(dice, game_positions):
    """Each international play is accepted by check_play in short nardy exactly when the
    generator lists it, and a refusal for this rule names the point the rule owes."""
    for pos in near_bear_off(game_positions, "short_nardy")[:15]:
        intl = pos._replace(variant="backgammon")
        legal = {mover_outcome(p) for p in legal_plays(pos, dice)}
        for play in legal_plays(intl, dice):
            check = check_play(pos, dice, play.steps)
            assert check.ok == (mover_outcome(play) in legal), (pos, dice, play)
            for problem in check.problems:
                if problem.code == "record.exact_bear_off_required":
                    assert 1 <= problem.details["point"] <= 6
