"""Swiss pairing benchmark: time and quality for 100, 1,000 and 10,000 players.

Run from the repository root::

    .venv/bin/python bench/pairing.py            # 100, 1000, 10000 players
    .venv/bin/python bench/pairing.py 100 1000   # chosen sizes

Each field plays a simulated 9-round Swiss (seeded RNG, results biased by
rating on the Elo curve); rounds 2, 5 and 9 are timed. Quality figures per
timed round: rematches (must be 0), floaters (tables whose players come from
different score groups — one player floated down, one up), and the sum of
score differences over all tables, and the path the pairing took: ``fast`` (the
top-down pass, certified optimal by its lower bound) or ``exact:N`` (N players
paired by the weighted matcher). Aim (issue 18): 1,000 players < 0.1 s per
round, 10,000 < 1 s. A second table pairs small club fields (12–32 players,
rounds 5–9), where the exact matcher does most of its work.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.simulate import (  # noqa: E402
    SimulatedTournament,
    make_entrants,
    play_round,
)
from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.swiss_input import SwissOptions  # noqa: E402

TIMED_ROUNDS = (2, 5, 9)


def run(n: int, seed: int = 2026) -> list[tuple[int, int, float, float, int, int, float, str]]:
    """One simulated tournament of ``n`` players; a row per timed round."""
    rng = random.Random(seed)
    t = SimulatedTournament(make_entrants(n, seed), [], SwissOptions())
    rows = []
    for rnd in range(1, max(TIMED_ROUNDS) + 1):
        gc.collect()  # start each round from a clean heap, so timings compare across rounds
        t0 = time.perf_counter()
        inp = t.next_input()
        t1 = time.perf_counter()
        res = pair_swiss(inp)
        t2 = time.perf_counter()
        if rnd in TIMED_ROUNDS:
            score = {p.id: p.match_points for p in inp.players}
            opp = {p.id: set(p.opponents) for p in inp.players}
            rematches = sum(1 for p in res.pairings if p.b in opp[p.a])
            floaters = sum(1 for p in res.pairings if score[p.a] != score[p.b])
            diff = sum(abs(score[p.a] - score[p.b]) for p in res.pairings)
            exact = [x.details["size"] for x in res.notes if x.code == "pairing.why.exact_window"]
            path = f"exact:{sum(exact)}" if exact else "fast"
            rows.append((n, rnd, t2 - t1, t1 - t0, rematches, floaters, diff, f"{res.status} {path}"))
        play_round(t, res, rng)
    return rows


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [100, 1000, 10000]
    print(f"{'players':>8} {'round':>5} {'pair s':>8} {'input s':>8} {'rematches':>9} "
          f"{'floaters':>8} {'Σ|Δscore|':>9}  status")  # fmt: skip
    worst: dict[int, float] = {}
    for n in sizes:
        for n_, rnd, pair_s, input_s, rem, fl, diff, status in run(n):
            worst[n_] = max(worst.get(n_, 0.0), pair_s)
            print(f"{n_:>8} {rnd:>5} {pair_s:>8.3f} {input_s:>8.3f} {rem:>9} {fl:>8} "
                  f"{diff:>9g}  {status}")  # fmt: skip
    targets = {1000: 0.1, 10000: 1.0}
    for n, limit in targets.items():
        if n in worst:
            verdict = "OK" if worst[n] < limit else "SLOW"
            print(
                f"{n} players: worst pairing time {worst[n]:.3f} s (target < {limit:g} s) {verdict}"
            )
    if not argv:
        club_fields()
    return 0


def club_fields(seeds: int = 40) -> None:
    """Small fields late in the event: the slowest single round and how often it went exact."""
    slowest = 0.0
    exact = total = 0
    for n in (12, 13, 16, 20, 24, 31, 32):
        for seed in range(seeds):
            rng = random.Random(seed)
            t = SimulatedTournament(make_entrants(n, seed), [], SwissOptions())
            for rnd in range(1, 10):
                inp = t.next_input()
                t0 = time.perf_counter()
                res = pair_swiss(inp)
                took = time.perf_counter() - t0
                if rnd >= 5:
                    slowest = max(slowest, took)
                    total += 1
                    exact += any(x.code == "pairing.why.exact_window" for x in res.notes)
                play_round(t, res, rng)
    print(f"club fields 12-32 players, rounds 5-9: {total} rounds, {exact} paired exactly, "
          f"slowest {slowest:.4f} s")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
