"""Round robin by the FIDE Berger tables (Handbook C.05, Annex 1).

The book calls the round robin the objective system and allows "2 or more
cycles". Arbiters everywhere use the Berger tables, so ours must reproduce
them exactly (the tests compare with the published tables): players get the
table numbers of the open draw, an odd field adds a dummy number n+1 whose
opponent has the bye, and the first-named player of each pair (White, or the
"home" side) is kept, with sides swapped in every even cycle.

Construction (it regenerates the published tables): round 1 is 1–n, 2–(n-1),
…; each next round adds n/2 to every number except n (modulo n-1, within
1…n-1), keeping each pair's order; n is second in odd rounds, first in even.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import RuleViolation
from tournaments.pairing.problems import OPTIONS, ROUND_ROBIN, WHY
from tournaments.pairing.types import Pairing, PlayerId


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """Rounds of numbered pairs (first number = first-named side) for ``n`` numbers.

    ``n`` odd is padded to ``n + 1``; the highest number then stands for the bye.
    """
    if n < 2:
        raise RuleViolation(ROUND_ROBIN.problem("too_few", count=n))
    size = n + (n % 2)
    half = size // 2
    current = [(i, size + 1 - i) for i in range(1, half + 1)]
    rounds = [current]

    def shift(k: int) -> int:
        return k if k == size else (k - 1 + half) % (size - 1) + 1

    for rnd in range(2, size):
        nxt = []
        for a, b in current:
            a, b = shift(a), shift(b)
            if size in (a, b):
                other = b if a == size else a
                a, b = (size, other) if rnd % 2 == 0 else (other, size)
            nxt.append((a, b))
        rounds.append(nxt)
        current = nxt
    return rounds


@dataclass(frozen=True, slots=True)
class RoundRobinRound:
    round: int
    cycle: int
    pairings: tuple[Pairing, ...]
    bye: PlayerId | None


def round_robin(
    players: Sequence[PlayerId],
    cycles: int = 1,
    swap_last_two_rounds: bool = False,
) -> tuple[RoundRobinRound, ...]:
    """All rounds of all cycles at once.

    ``players`` are in draw-number order (``players[0]`` has number 1). In even
    cycles sides are swapped. ``swap_last_two_rounds`` applies FIDE's advice for
    double round robins: play the first cycle's last two rounds in reverse
    order, so nobody gets the same side three times running across the seam.
    """
    if cycles < 1:
        raise RuleViolation(
            OPTIONS.problem(
                "invalid", system="round_robin", option="cycles", value=cycles,
                expected="integer", minimum=1,
            )
        )
    if len(set(players)) != len(players):
        raise RuleViolation(ROUND_ROBIN.problem("duplicate"))
    table = berger_table(len(players))
    if swap_last_two_rounds and cycles > 1 and len(table) >= 2:
        table = table[:-2] + [table[-1], table[-2]]
    number = {i + 1: pid for i, pid in enumerate(players)}
    out: list[RoundRobinRound] = []
    rnd = 0
    for cycle in range(1, cycles + 1):
        swapped = cycle % 2 == 0
        for pairs in table:
            rnd += 1
            pairings: list[Pairing] = []
            bye = None
            for a, b in pairs:
                if a not in number or b not in number:
                    bye = number[a] if a in number else number[b]
                    continue
                first, second = (number[b], number[a]) if swapped else (number[a], number[b])
                note = WHY.problem(
                    "berger", cycle=cycle, number_a=a, number_b=b, swapped=swapped
                )
                pairings.append(Pairing(len(pairings) + 1, first, second, first, notes=(note,)))
            out.append(RoundRobinRound(rnd, cycle, tuple(pairings), bye))
    return tuple(out)
