"""Zarik's Swiss pairing side by side with bbpPairings (the FIDE Dutch reference), group by group.

A benchmark, not a test: it needs a bbpPairings binary built by hand, and it
skips with a message (exit 0) when there is none. Build it once under /tmp::

    git clone <bbpPairings source> /tmp/bbp && make -C /tmp/bbp   # g++ ≥ 10
    BBP_PAIRINGS=/tmp/bbp/bbpPairings.exe .venv/bin/python bench/bbp_compare.py
    .venv/bin/python bench/bbp_compare.py --big 100,500      # also big fields

bbp's random tournament generator (``-g`` with a config, ``-s`` seed) plays a
whole Dutch-paired tournament. For each compared round *r*, both engines pair
round *r* from the same history (rounds 1..r-1 of that file): bbp's answer is
round *r* of the file, Zarik's is :func:`pair_swiss` on the file cut before
*r*. Forfeits, retirements and half-point byes are switched off and draws are
off (backgammon has none), so both see the same field.

For each metric, the per-group figures are compared from the top score group
down; the first group that differs decides better / equal / worse. The metrics
are Zarik's criteria in their order, so a metric is compared only where the
ones before it are equal (fewer floaters may cost a larger difference — the
criteria put floaters first); "overall" is the three in order:

- rematches: tables of players who met before, by the higher player's group;
- downfloaters: players crossing the boundary below each group (a player who
  floats two groups counts in both, as in the Dutch system);
- score differences: the differences of the tables whose higher player is in
  the group, largest first.

Goal (issue 18): Zarik never worse.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.criteria import crossings, score_levels  # noqa: E402
from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.trf import TrfTournament, parse_trf, to_pairing_input  # noqa: E402

CANDIDATES = ("/tmp/bbp/bbpPairings.exe", "/tmp/p18/bbp/bbpPairings.exe", "bbpPairings.exe")
METRICS = ("rematches", "downfloaters", "differences")
Pair = tuple[int, int]


def find_bbp() -> str | None:
    """The bbpPairings binary: $BBP_PAIRINGS, a /tmp build, or one on the PATH."""
    for path in (os.environ.get("BBP_PAIRINGS"), *CANDIDATES):
        if path and (Path(path).is_file() or shutil.which(path)):
            return shutil.which(path) or path
    return None


def generate(bbp: str, players: int, rounds: int, seed: int, workdir: Path) -> TrfTournament:
    """A whole tournament paired by bbp's Dutch system (its random results).

    Kept in $BBP_CACHE (default /tmp/bbp-cache), because bbp needs minutes per
    round for a thousand players.
    """
    cache = Path(os.environ.get("BBP_CACHE", "/tmp/bbp-cache"))
    cached = cache / f"dutch-{players}p-{rounds}r-seed{seed}.trf"
    if cached.is_file():
        return parse_trf(cached.read_text())
    config = workdir / "config.txt"
    config.write_text(
        f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=0\n"
        "ForfeitRate=1000000000\nRetiredRate=1000000000\nHalfPointByeRate=1000000000\n"
    )
    out = workdir / "generated.trf"
    subprocess.run(
        [bbp, "--dutch", "-g", str(config), "-o", str(out), "-s", str(seed)],
        check=True,
        capture_output=True,
        timeout=3600,
    )
    text = out.read_text()
    cache.mkdir(parents=True, exist_ok=True)
    cached.write_text(text)
    return parse_trf(text)


def cut_before(t: TrfTournament, rnd: int) -> TrfTournament:
    """The tournament as it stood before round ``rnd`` was paired."""
    players = tuple(
        dataclasses.replace(p, games=tuple(g for g in p.games if g.round < rnd)) for p in t.players
    )
    return dataclasses.replace(t, players=players)


def bbp_round(t: TrfTournament, rnd: int) -> list[Pair]:
    pairs = []
    for p in t.players:
        for g in p.games:
            if g.round == rnd and g.opponent is not None and p.start_number < g.opponent:
                pairs.append((p.start_number, g.opponent))
    return pairs


def per_group(
    pairs: list[Pair], score: dict[int, float], met: dict[int, set[int]]
) -> dict[str, list[object]]:
    """Each metric as a list over the score groups, top group first."""
    levels = score_levels(score.values())
    index = {s: i for i, s in enumerate(levels)}
    rematches = [0] * len(levels)
    diffs: list[list[float]] = [[] for _ in levels]
    for a, b in pairs:
        hi = a if score[a] >= score[b] else b
        g = index[score[hi]]
        rematches[g] += b in met[a]
        if score[a] != score[b]:
            diffs[g].append(abs(score[a] - score[b]))
    return {
        "rematches": list(rematches),
        "downfloaters": list(crossings(pairs, score)),
        "differences": [tuple(sorted(d, reverse=True)) for d in diffs],
    }


def verdict(ours: list[object], theirs: list[object]) -> str:
    for x, y in zip(ours, theirs, strict=True):
        if x != y:
            return "better" if x < y else "worse"  # type: ignore[operator]
    return "equal"


def compare(bbp: str, players: int, rounds: range, seeds: range) -> tuple[Counter, float, list]:
    tally: Counter = Counter()
    slowest = 0.0
    worse: list[tuple[int, int, int, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            full = generate(bbp, players, max(rounds), seed, Path(tmp))
            for rnd in rounds:
                inp = to_pairing_input(cut_before(full, rnd))
                t0 = time.perf_counter()
                res = pair_swiss(inp)
                slowest = max(slowest, time.perf_counter() - t0)
                score = {p.id: p.match_points for p in inp.players}
                met = {p.id: set(p.opponents) for p in inp.players}
                ours = per_group([t.players for t in res.pairings], score, met)
                theirs = per_group(bbp_round(full, rnd), score, met)
                overall = "equal"
                for metric in METRICS:
                    v = verdict(ours[metric], theirs[metric])
                    if overall == "equal":
                        tally[(metric, v)] += 1
                        overall = v
                tally[("overall", overall)] += 1
                if overall == "worse":
                    worse.append((players, seed, rnd))
    return tally, slowest, worse


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", default="12,13,16,20,24,31,32", help="club field sizes")
    parser.add_argument("--seeds", type=int, default=10, help="tournaments per small size")
    parser.add_argument("--big", default="100", help="big field sizes ('' for none)")
    parser.add_argument("--big-seeds", type=int, default=2)
    parser.add_argument("--big-rounds", default="5,7", help="rounds compared in big fields")
    args = parser.parse_args(argv)
    bbp = find_bbp()
    if bbp is None:
        print(
            "bbpPairings is not built: set BBP_PAIRINGS or build it under /tmp/bbp "
            "(see this file's docstring). Skipping the comparison."
        )
        return 0
    plans = [(int(n), range(5, 10), range(1, args.seeds + 1)) for n in args.small.split(",") if n]
    big_rounds = [int(r) for r in args.big_rounds.split(",")]
    plans += [
        (int(n), range(min(big_rounds), max(big_rounds) + 1), range(1, args.big_seeds + 1))
        for n in args.big.split(",")
        if n
    ]
    header = f"{'players':>7} {'rounds':>6} {'cmp':>4}"
    for m in (*METRICS, "overall"):
        header += f" | {m:>12} b/=/w"
    print(header + " | zarik s (max)")
    all_worse = []
    for players, rounds, seeds in plans:
        tally, slowest, worse = compare(bbp, players, rounds, seeds)
        all_worse += worse
        n = sum(tally[(METRICS[0], v)] for v in ("better", "equal", "worse"))
        row = f"{players:>7} {rounds.start}-{rounds.stop - 1:<4} {n:>4}"
        for m in (*METRICS, "overall"):
            cell = f"{tally[(m, 'better')]}/{tally[(m, 'equal')]}/{tally[(m, 'worse')]}"
            row += f" | {cell:>18}"
        print(row + f" | {slowest:.4f}", flush=True)
    if all_worse:
        print("worse (players, seed, round):", all_worse)
    else:
        print("Zarik was never worse than bbpPairings.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
