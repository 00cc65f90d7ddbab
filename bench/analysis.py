"""Match analysis: GNU Backgammon's time per match on one core, a round on two workers, and
the cost of the event's PR table for 200 players.

Run: .venv/bin/python bench/analysis.py            (engine times + PR table)
     .venv/bin/python bench/analysis.py --round    (also: 50 matches on two workers)
     .venv/bin/python bench/analysis.py --no-2ply  (skip the slow 2-ply runs)

Engine: the committed noisy self-play matches ``tests/data/analysis/noisy5.mat`` and
``noisy11.mat`` analysed at 0-ply and 2-ply, each run one gnubg process pinned to one core
(:func:`scoring.analysis.engine.analyse`, exactly as a worker runs it). The round: 50 copies
of the 5-point match at 0-ply through two concurrent runners (two worker processes' worth
of cores). The PR table: a throwaway test database with 200 players, 5 rounds of 100
analysed matches; ``/t/<slug>/analysis/`` is requested as an official (queries counted,
median of 10 requests).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    setup_databases,
    setup_test_environment,
    teardown_databases,
)

from scoring.analysis import engine, services  # noqa: E402

DATA = ROOT / "tests" / "data" / "analysis"
TABLE_AIM_MS = 300.0


def engine_times(with_two_ply: bool) -> None:
    program = services.program()
    if program is None:
        print("gnubg is not installed: engine times skipped (apt-get install gnubg)")
        return
    for name in ("noisy5.mat", "noisy11.mat"):
        text = (DATA / name).read_text()
        for plies in (0, 2) if with_two_ply else (0,):
            out = engine.analyse(text, plies=plies, timeout=3600, program=program)
            games = len(out.match.get("games") or [])
            print(f"{name} ({games} games): {plies}-ply {out.seconds:.1f} s on one core")


def round_on_two_workers(count: int = 50) -> None:
    program = services.program()
    if program is None:
        return
    text = (DATA / "noisy5.mat").read_text()
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda _: engine.analyse(text, plies=0, timeout=600, program=program), range(count)))
    print(f"a round of {count} five-point matches at 0-ply on two workers: {time.perf_counter() - began:.1f} s wall")


def pr_table_page() -> None:
    from scoring.analysis.models import AnalysisState, MatchAnalysis
    from tests.factories import (
        EntryFactory,
        MatchFactory,
        OfficialFactory,
        PlayerFactory,
        RoundFactory,
        TournamentFactory,
    )

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        t = TournamentFactory(slug="bench-pr", match_length=5)
        official = OfficialFactory(tournament=t, role="referee").user
        entries = [EntryFactory(tournament=t, player=PlayerFactory()) for _ in range(200)]
        for number in range(1, 6):
            rnd = RoundFactory(tournament=t, number=number)
            for i in range(100):
                a, b = entries[(2 * i + number) % 200], entries[(2 * i + 1 + 3 * number) % 200]
                if a.pk == b.pk:
                    continue
                m = MatchFactory(round=rnd, table=i + 1, entry_a=a, entry_b=b)
                MatchAnalysis.objects.create(
                    match=m, tournament=t, state=AnalysisState.DONE, pr_a=3 + (i % 17), pr_b=4 + (i % 13),
                    decisions_a=60 + i, decisions_b=70 + i, report={"mat": "x" * 20000},
                )
        client = Client()
        client.force_login(official)
        url = f"/t/{t.slug}/analysis/"
        client.get(url)
        queries = []

        def counted(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            answer = client.get(url)
        assert answer.status_code == 200
        times = []
        for _ in range(10):
            began = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - began) * 1000)
        median = statistics.median(times)
        print(
            f"PR table, 200 players, 5 rounds ({MatchAnalysis.objects.count()} analysed matches): "
            f"{len(queries)} queries, median {median:.0f} ms; aim < {TABLE_AIM_MS:.0f} ms: "
            f"{'ok' if median < TABLE_AIM_MS else 'MISSED'}"
        )
    finally:
        teardown_databases(old, verbosity=0)


def main() -> None:
    engine_times(with_two_ply="--no-2ply" not in sys.argv)
    if "--round" in sys.argv:
        round_on_two_workers()
    pr_table_page()


if __name__ == "__main__":
    main()
