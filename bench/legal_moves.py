"""Legal-play generation speed: our pure-Python core against GNU Backgammon (gnubg_nn).

Positions come from seeded random backgammon games; both engines get the same positions
and rolls. Each figure is the best of several rounds, measured both as CPU time of this
process (``time.process_time``, less disturbed by a busy machine) and as wall time; a
calibration loop shows how fast this machine is right now.

    .venv/bin/python bench/legal_moves.py [games] [rounds]
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import gnubg_nn  # noqa: E402

from scoring.rules import (  # noqa: E402
    Position,
    is_game_over,
    legal_end_positions,
    legal_plays,
    position_id,
)


def positions(games: int, seed: int = 7) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.start("backgammon", rng.randint(0, 1))
        while not is_game_over(pos):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((pos, dice))
            pos = rng.choice(legal_plays(pos, dice)).position
    return out


def best_rates(fn, items, rounds: int) -> tuple[float, float]:
    """(CPU, wall) items per second, each the best of ``rounds``."""
    cpu = wall = float("inf")
    for _ in range(rounds):
        c, w = time.process_time(), time.perf_counter()
        fn(items)
        cpu = min(cpu, time.process_time() - c)
        wall = min(wall, time.perf_counter() - w)
    return len(items) / cpu, len(items) / wall


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    items = positions(games)
    boards = [(gnubg_nn.board_from_position_id(position_id(p)), d) for p, d in items]

    def ours_positions(xs):
        for p, d in xs:
            legal_end_positions(p, d)

    def ours_plays(xs):
        for p, d in xs:
            legal_plays(p, d)

    def gnubg(xs):
        for b, d in xs:
            gnubg_nn.moves(b, d[0], d[1])

    calibration = min(
        (lambda t: (sum(range(1_000_000)), time.process_time() - t)[1])(time.process_time())
        for _ in range(5)
    )
    g = best_rates(gnubg, boards, rounds)
    r = best_rates(ours_positions, items, rounds)
    o = best_rates(ours_plays, items, rounds)
    print(
        f"calibration: sum(range(10**6)) takes {calibration * 1e3:.1f} ms CPU here "
        "(about 10-15 ms on an idle modern core)"
    )
    print(f"positions: {len(items)} from {games} seeded random games; best of {rounds} rounds")
    print("                                      CPU pos/s    wall pos/s   gnubg/ours (CPU)")
    print(f"gnubg_nn.moves                        {g[0]:10.0f}    {g[1]:10.0f}")
    for name, rate in (
        ("legal_end_positions (Positions)", r),
        ("legal_plays (Play + Position)", o),
    ):
        print(f"{name:<38}{rate[0]:10.0f}    {rate[1]:10.0f}   {g[0] / rate[0]:8.1f}x")


if __name__ == "__main__":
    main()
