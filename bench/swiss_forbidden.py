"""Forbidden pairs in the Swiss: what keeping clubs apart costs the pairing, and that it holds.

Run from the repository root::

    .venv/bin/python bench/swiss_forbidden.py            # 100 and 1,000 players
    .venv/bin/python bench/swiss_forbidden.py 100 1000 10000

Players are spread over ``clubs`` clubs (every pair inside a club forbidden, as the
option ``club_apart_rounds`` does) plus one director's pair per 50 players. Rounds
1 and 2 are paired with the forbidden pairs handed to the core's ``forbidden_pairs``
input (kept to the section by ``pairing_manager.reading._forbidden_among``), then once more
without them to find the tables an option changed (what the explanation reports).
Figures: time with and without, forbidden pairs paired (must be 0), status.
"""

from __future__ import annotations

import os
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

import django  # noqa: E402

django.setup()

from tournaments.pairing.simulate import (  # noqa: E402
    SimulatedTournament,
    make_entrants,
    play_round,
)
from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.swiss_input import PairingInput, SwissOptions  # noqa: E402
from tournaments.rounds.pairing_manager.reading import _forbidden_among, without_forbidden  # noqa: E402


def forbidden_pairs(ids: list[int], clubs: int, rng: random.Random) -> dict[frozenset[int], dict]:
    by_club: dict[int, list[int]] = {}
    for pid in ids:
        by_club.setdefault(rng.randrange(clubs), []).append(pid)
    out = {frozenset(p): {"rule": "club"} for m in by_club.values() for p in combinations(m, 2)}
    for _ in range(max(1, len(ids) // 50)):
        a, b = rng.sample(ids, 2)
        out[frozenset((a, b))] = {"rule": "director"}
    return out


def run(n: int, clubs: int = 10, seed: int = 2026) -> list[tuple]:
    rng = random.Random(seed)
    t = SimulatedTournament(make_entrants(n, seed), [], SwissOptions())
    rows = []
    for rnd in (1, 2):
        inp = t.next_input()
        forbidden = forbidden_pairs([p.id for p in inp.players], clubs, rng)
        kept = _forbidden_among(inp.players, forbidden)
        constrained = PairingInput(inp.round_number, inp.players, inp.options, frozenset(kept))
        t0 = time.perf_counter()
        res = pair_swiss(constrained)
        t1 = time.perf_counter()
        free = pair_swiss(without_forbidden(constrained))  # the explanation's second pass
        t2 = time.perf_counter()
        bad = sum(1 for p in res.pairings if frozenset(p.players) in kept)
        changed = sum(1 for p in free.pairings if frozenset(p.players) in kept)
        rows.append((n, rnd, len(kept), t1 - t0, t2 - t1, bad, changed, res.status))
        play_round(t, res, rng)
    return rows


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [100, 1000]
    print(f"{'players':>8} {'round':>5} {'forbidden':>9} {'with s':>8} {'again s':>8} "
          f"{'paired':>6} {'changed':>7}  status")  # fmt: skip
    for n in sizes:
        for n_, rnd, k, with_s, again_s, bad, changed, status in run(n):
            print(f"{n_:>8} {rnd:>5} {k:>9} {with_s:>8.3f} {again_s:>8.3f} {bad:>6} {changed:>7}  {status}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
