"""Standings and the Excel export for a simulated 1,000-player, 11-round Swiss.

Run: .venv/bin/python bench/standings_export.py [players] [rounds]
Aim (issue 6): standings < 1 s; export < 5 s and < 200 MB peak memory.

The event is made here with a seeded RNG: each round pairs players of equal
(or nearest) score who have not met, gives the odd one out a bye, and decides
7-point matches by a rating-weighted coin, with realistic final scores and the
odd gammon. Time is reported as wall and CPU seconds (on a shared, busy
machine the wall time also counts waiting for a core). Memory is reported two ways: tracemalloc's peak of Python
allocations during each step (run separately, as tracing slows Python down),
and the process's peak resident set size from getrusage.
"""

from __future__ import annotations

import io
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.exports import ExportOptions, TournamentInfo, write_workbook  # noqa: E402
from tournaments.standings import (  # noqa: E402
    Match,
    Player,
    StandingsOptions,
    System,
    compute_standings,
)

LENGTH = 7


def simulate(n_players: int, n_rounds: int, seed: int = 20110) -> tuple[list[Player], list[Match]]:
    rng = random.Random(seed)
    players = [
        Player(
            i + 1,
            f"Игрок {i + 1}",
            f"Player {i + 1}",
            draw_number=i + 1,
            rating=round(rng.gauss(1500, 200)),
            club=f"Клуб {rng.randint(1, 40)}",
        )
        for i in range(n_players)
    ]
    rating = {p.id: p.rating or 1500.0 for p in players}
    wins = dict.fromkeys(rating, 0)
    met: set[frozenset[int]] = set()
    matches: list[Match] = []
    had_bye: set[int] = set()
    for rnd in range(1, n_rounds + 1):
        order = sorted(rating, key=lambda pid: (-wins[pid], pid))
        if len(order) % 2:
            bye = next(pid for pid in reversed(order) if pid not in had_bye)
            had_bye.add(bye)
            order.remove(bye)
            wins[bye] += 1
            matches.append(Match(rnd, bye, None, LENGTH, 0))
        table = 1
        while order:
            a = order.pop(0)
            k = next((i for i, b in enumerate(order) if frozenset((a, b)) not in met), 0)
            b = order.pop(k)
            met.add(frozenset((a, b)))
            p_a = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 2000 * 5))
            winner, loser = (a, b) if rng.random() < p_a else (b, a)
            w_score = LENGTH + rng.choice((0, 0, 0, 1, 2))
            l_score = rng.randint(0, LENGTH - 1)
            gam = rng.choice((0, 0, 1, 1, 2))
            sa, sb = (w_score, l_score) if winner == a else (l_score, w_score)
            ga, gb = (gam, 0) if winner == a else (0, gam)
            matches.append(
                Match(rnd, a, b, sa, sb, winner=winner, gammons_a=ga, gammons_b=gb, table=table)
            )
            table += 1
            wins[winner] += 1
    return players, matches


def timed(label: str, fn, *, trace: bool) -> float:
    if trace:
        tracemalloc.start()
        fn()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{label:<28} tracemalloc peak {peak / 2**20:8.1f} MB")
        return peak
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{label:<28} {elapsed:8.3f} s wall, {cpu:8.3f} s CPU")
    return cpu


def main() -> None:
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n_rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    t0 = time.perf_counter()
    players, matches = simulate(n_players, n_rounds)
    print(
        f"simulated {n_players} players, {n_rounds} rounds, {len(matches)} matches "
        f"in {time.perf_counter() - t0:.2f} s"
    )
    opts = StandingsOptions(system=System.SWISS, total_rounds=n_rounds)
    info = TournamentInfo("Открытый турнир (симуляция)", "Simulated open", slug="bench")
    export_opts = ExportOptions(language="ru", standings=opts)
    calls: list[tuple[int, int]] = []

    def standings() -> None:
        compute_standings(players, matches, opts)

    def export() -> None:
        buffer = io.BytesIO()
        write_workbook(
            buffer, info, players, matches, export_opts, progress=lambda d, t: calls.append((d, t))
        )
        export.size = buffer.tell()  # type: ignore[attr-defined]

    s = timed("standings", standings, trace=False)
    e = timed("excel export (in memory)", export, trace=False)
    timed("standings", standings, trace=True)
    peak = timed("excel export (in memory)", export, trace=True)
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"workbook size {export.size / 2**20:.2f} MB; progress callbacks {len(calls) // 2}")  # type: ignore[attr-defined]
    print(f"process peak RSS (getrusage maxrss, whole run) {maxrss_mb:.1f} MB")
    ok = s < 1 and e < 5 and peak < 200 * 2**20 and maxrss_mb < 200
    print("aims met (CPU seconds; equal to wall time on an idle machine):", "yes" if ok else "NO")


if __name__ == "__main__":
    main()
