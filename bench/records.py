"""Record validation speed: book game 1 and GNU Backgammon self-play games (.mat).

Run: ``.venv/bin/python bench/records.py``. Times are the best of 40 runs, as CPU time of
this process (``time.process_time``, less disturbed by a shared, loaded machine) and as
wall time. Prints records per second and the time per game normalised to 60 plies (the
issue's aim: a 60-move record in under 5 ms).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.rules.records.events import PlayEvent  # noqa: E402
from scoring.rules.records.matfile import game_record, parse_mat  # noqa: E402
from scoring.rules.records.reader import parse_record  # noqa: E402
from scoring.rules.records.replay import Replayer, replay  # noqa: E402

RECORDS = ROOT / "tests" / "data" / "records"


WALL: list[float] = []


def _timeit(fn, repeats: int = 40) -> tuple[int, float]:
    """Best of ``repeats`` single runs (like ``timeit``: the minimum is the least disturbed
    by other work on the machine); returned as ``(1, CPU seconds)``, and the best wall
    time is appended to :data:`WALL`."""
    best = wall = float("inf")
    for _ in range(repeats):
        start, wall_start = time.process_time(), time.perf_counter()
        fn()
        best = min(best, time.process_time() - start)
        wall = min(wall, time.perf_counter() - wall_start)
    WALL.append(wall)
    return 1, best


def _wall_ms(scale: float = 1.0) -> str:
    return f"(wall {WALL[-1] * 1e3 * scale:6.2f} ms)"


def _annotate(line: str) -> str:
    """A table row with "(!)" and "(или 24/23)" after each side's play (the alternative is
    checked and usually illegal, so it also exercises the notes)."""
    parts = line.split("\t")
    if len(parts) < 3 or not parts[0].strip().rstrip(".").isdigit():
        return line
    cells = [c + " (!) (или 24/23)" if c.strip() and c[:1].isdigit() else c for c in parts[1:]]
    return "\t".join([parts[0], *cells])


def main() -> None:
    _, calibration = _timeit(lambda: sum(range(1_000_000)))
    print(
        f"calibration: sum(range(10**6)) takes {calibration * 1e3:.1f} ms CPU here "
        "(about 10-15 ms on an idle modern core; scale the figures below accordingly)"
    )
    book = (RECORDS / "book_game1_backgammon.txt").read_text(encoding="utf-8")
    plies = len(parse_record(book).plays)
    runs, elapsed = _timeit(lambda: replay(parse_record(book)))
    per = elapsed / runs
    print(
        f"book game 1 ({plies} plies), parse + replay: {runs / elapsed:8.0f} records/s, "
        f"{per * 1e3:6.2f} ms/record, {per * 1e3 * 60 / plies:6.2f} ms per 60 plies "
        f"{_wall_ms(60 / plies)}"
    )
    runs, elapsed = _timeit(lambda: parse_record(book))
    per = elapsed / runs
    print(
        f"book game 1, parse only:               {runs / elapsed:8.0f} records/s, "
        f"{per * 1e3:6.2f} ms/record {_wall_ms()}"
    )
    parsed = parse_record(book)
    runs, elapsed = _timeit(lambda: replay(parsed))
    per = elapsed / runs
    print(
        f"book game 1, replay only:              {runs / elapsed:8.0f} records/s, "
        f"{per * 1e3:6.2f} ms/record {_wall_ms()}"
    )

    # The same game with an annotation mark and a bracketed alternative on every move (the
    # worst case of issue 16's conventions: each alternative is checked against the rules).
    annotated = "\n".join(_annotate(line) for line in book.splitlines())
    assert len(parse_record(annotated).plays) == plies
    runs, elapsed = _timeit(lambda: replay(parse_record(annotated)))
    per = elapsed / runs
    print(
        f"book game 1 annotated, parse + replay: {runs / elapsed:8.0f} records/s, "
        f"{per * 1e3:6.2f} ms/record, {per * 1e3 * 60 / plies:6.2f} ms per 60 plies "
        f"{_wall_ms(60 / plies)}"
    )

    records = []
    for path in sorted(RECORDS.glob("gnubg_*.mat")):
        match = parse_mat(path.read_text(encoding="utf-8"))
        records.extend(game_record(match, game) for game in match.games)
    total_plies = sum(sum(isinstance(e, PlayEvent) for e in r.events) for r in records)

    def run_all() -> None:
        for record in records:
            replayer = Replayer(record)
            replayer.run(record.events)
            replayer.report()

    runs, elapsed = _timeit(run_all)
    per_game = elapsed / runs / len(records)
    per_ply = elapsed / runs / total_plies
    longest = max(sum(isinstance(e, PlayEvent) for e in r.events) for r in records)
    print(
        f"gnubg self-play: {len(records)} games, {total_plies} plies (longest {longest}): "
        f"{runs * len(records) / elapsed:8.0f} games/s, {per_game * 1e3:6.2f} ms/game, "
        f"{per_ply * 60 * 1e3:6.2f} ms per 60 plies {_wall_ms(60 / total_plies)}"
    )
    texts = [p.read_text(encoding="utf-8") for p in sorted(RECORDS.glob("gnubg_*.mat"))]
    runs, elapsed = _timeit(lambda: [parse_mat(t) for t in texts])
    print(f".mat reading only: {runs * len(texts) / elapsed:8.0f} files/s (CPU)")
    print("all figures are CPU time unless marked wall")


if __name__ == "__main__":
    main()
