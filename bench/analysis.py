"""Match analysis: GNU Backgammon's time per match on one core, a round on two workers, and
the cost of the event's PR table for 200 players.

Run: .venv/bin/python bench/analysis.py            (engine times + PR table)
     .venv/bin/python bench/analysis.py --round    (also: a round of 50 matches on two real workers)
     .venv/bin/python bench/analysis.py --no-2ply  (skip the slow 2-ply runs)

Engine: the committed noisy self-play matches ``tests/data/analysis/noisy5.mat`` and
``noisy11.mat`` analysed at 0-ply and 2-ply, each run one gnubg process pinned to one core
(:func:`scoring.analysis.engine.analyse`, exactly as a worker runs it).

The round (``--round``), the real path end to end: a throwaway PostgreSQL database
(``test_zarik_bench_analysis``, or ``$BENCH_DATABASE_URL``'s name) and a Redis database of its
own (``$BENCH_BROKER_URL``, default ``redis://127.0.0.1:6379/11``, emptied first). A
backgammon event's round of 50 pairings gets the 5-point match attached to each, as the
app does (``match_files.read_file`` → ``store`` → ``attach``); two ``celery -A zarik worker
-c 1`` processes are started; then the round is queued by the "Analyse round N" service
(:func:`scoring.analysis.services.request_round`) and timed until every analysis is done.
Printed: the wall time, the median time of one match on a worker, and, beside them, the
same 50 engine runs on two threads without Celery or the database (the engine's share).

The PR table: 200 players, 5 rounds of 100 analysed matches; ``/t/<slug>/analysis/`` is
requested as an official (queries counted, median of 10 requests).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
ROUND = "--round" in sys.argv
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/11")
if ROUND:
    # Before Django reads its settings: PostgreSQL as in production, tasks to a real broker.
    os.environ["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zarik_bench_analysis"
    )
    os.environ["CELERY_BROKER_URL"] = os.environ["CELERY_RESULT_BACKEND"] = BROKER

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


def engine_round_on_two_threads(count: int = 50) -> float | None:
    """The engine alone: ``count`` 0-ply runs of the 5-point match, two at a time."""
    program = services.program()
    if program is None:
        return None
    text = (DATA / "noisy5.mat").read_text()
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda _: engine.analyse(text, plies=0, timeout=600, program=program), range(count)))
    return time.perf_counter() - began


def _start_workers(count: int, log: Path) -> list[subprocess.Popen]:
    from zarik.celery import app

    db = connection.settings_dict
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
    )
    out = log.open("w")
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "zarik", "worker", "-c", "1", "-n", f"bench{i}@%h",
             "--loglevel=warning", "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
        for i in range(count)
    ]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if len(app.control.ping(timeout=1.0)) >= count:
                return workers
        except Exception:  # noqa: BLE001 - the broker or the workers are not up yet
            time.sleep(0.5)
        if any(w.poll() is not None for w in workers):
            break
    _stop(workers)
    raise SystemExit(f"the celery workers did not start; see {log}")


def _stop(workers: list[subprocess.Popen]) -> None:
    for w in workers:
        w.terminate()
    for w in workers:
        try:
            w.wait(timeout=30)
        except subprocess.TimeoutExpired:
            w.kill()


def round_on_two_workers(count: int = 50) -> None:
    """A round of ``count`` uploaded matches through attach, the round service, Redis and two workers."""
    import redis

    from scoring.analysis.models import AnalysisState, MatchAnalysis
    from scoring.records import match_files
    from tests.factories import (
        MatchFactory,
        OfficialFactory,
        RoundFactory,
        TournamentFactory,
        UserFactory,
    )

    if services.program() is None:
        print("gnubg is not installed: the round on two workers is skipped")
        return
    text = (DATA / "noisy5.mat").read_text()
    t = TournamentFactory(slug="bench-round", match_length=5, cube=True)
    referee = UserFactory()
    OfficialFactory(tournament=t, user=referee, role="referee")
    services.save_settings(t, referee, plies=0, public=False)
    rnd = RoundFactory(tournament=t, number=1)
    for table in range(1, count + 1):
        match = MatchFactory(round=rnd, table=table)
        check = match_files.read_file(text.encode(), name=f"table{table}.mat", variant=t.variant)
        mf = match_files.store(check, tournament=t, match=match, user=referee)
        # gnubg's sample is under its own players' names and score: attached despite that, with a reason.
        match_files.attach(mf, referee, first_is="a", despite=True, despite_reason="bench sample")
    # Attaching queued each match already; no worker was up, so forget those messages and
    # time the round from the organiser's "Analyse round 1" with the workers waiting.
    redis.Redis.from_url(BROKER).flushdb()
    log = Path("/tmp") / f"bench-analysis-workers-{os.getpid()}.log"
    workers = _start_workers(2, log)
    try:
        began = time.perf_counter()
        bulk = services.request_round(rnd, referee)
        assert bulk.queued == count, bulk
        rows = MatchAnalysis.objects.filter(match__round=rnd)
        deadline = time.monotonic() + 3600
        while rows.filter(state__in=(AnalysisState.QUEUED, AnalysisState.RUNNING)).exists():
            if time.monotonic() > deadline or any(w.poll() is not None for w in workers):
                raise SystemExit(f"the round did not finish; see {log}")
            time.sleep(0.2)
        wall = time.perf_counter() - began
    finally:
        _stop(workers)
        redis.Redis.from_url(BROKER).flushdb()  # the tasks' results: the bench's own database
    done = list(rows.filter(state=AnalysisState.DONE))
    failed = rows.exclude(state=AnalysisState.DONE).count()
    on_worker = statistics.median((r.finished_at - r.started_at).total_seconds() for r in done) if done else 0.0
    engine_median = statistics.median(r.seconds for r in done) if done else 0.0
    print(
        f"a round of {count} uploaded five-point matches at 0-ply, two celery workers (Redis, PostgreSQL): "
        f"{wall:.1f} s wall, {len(done)} done, {failed} failed; per match median {on_worker:.2f} s on a worker "
        f"(gnubg {engine_median:.2f} s); {wall / count:.2f} s per match of wall time"
    )
    alone = engine_round_on_two_threads(count)
    if alone is not None:
        print(f"  beside it, the engine alone: {count} runs on two threads without Celery or the database: {alone:.1f} s wall")


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


def main() -> None:
    engine_times(with_two_ply="--no-2ply" not in sys.argv)
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        if ROUND:
            round_on_two_workers()
        pr_table_page()
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
