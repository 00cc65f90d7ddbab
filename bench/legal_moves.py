"""Legal-play generation speed: our pure-Python core against GNU Backgammon (gnubg_nn).

Positions come from seeded random backgammon games; both engines get the same positions
and rolls. Times are CPU time of this process (``time.process_time``) so a busy machine
distorts them less; the best of several rounds is printed.

    .venv/bin/python bench/legal_moves.py [games] [rounds]
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import gnubg_nn  # noqa: E402

from scoring.rules import Position, is_game_over, legal_plays, position_id  # noqa: E402
from scoring.rules.moves import legal_end_positions  # noqa: E402


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


def best_rate(fn, items, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn(items)
        best = min(best, time.process_time() - t)
    return len(items) / best


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    items = positions(games)
    boards = [(gnubg_nn.board_from_position_id(position_id(p)), d) for p, d in items]

    def ours_generate(xs):
        for p, d in xs:
            legal_end_positions(p, d)

    def ours_plays(xs):
        for p, d in xs:
            legal_plays(p, d)

    def gnubg(xs):
        for b, d in xs:
            gnubg_nn.moves(b, d[0], d[1])

    g = best_rate(gnubg, boards, rounds)
    r = best_rate(ours_generate, items, rounds)
    o = best_rate(ours_plays, items, rounds)
    print(f"positions: {len(items)} from {games} seeded random games")
    print(f"gnubg_nn.moves:                     {g:10.0f} positions/s")
    print(f"ours, legal_end_positions:         {r:10.0f} positions/s   ratio {g / r:5.1f}x")
    print(f"ours, legal_plays (Play/Position):  {o:10.0f} positions/s   ratio {g / o:5.1f}x")


if __name__ == "__main__":
    main()
