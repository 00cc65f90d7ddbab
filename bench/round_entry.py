"""A whole round entered result by result through the API (issue 50): does each confirmation cost the same?

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/zarik_bench .venv/bin/python bench/round_entry.py 1000
     DATABASE_URL=sqlite:////tmp/zarik_bench.sqlite3 .venv/bin/python bench/round_entry.py 1000

For each size N a throwaway database (the runner works in its ``test_`` copy) gets N players in
one rated Swiss, rounds 1–4 written in bulk and closed (``bench/big_event.py``'s setup) and the
pool's ratings computed. Round 5 is paired and published; then the organiser's API token enters
every result confirmed (``POST /api/matches/<id>/report/`` with ``confirm``, as a hall's referee
does), tables in a shuffled order, so late results often sort before ones already rated. The
after-commit work runs in the request (Celery eager): the ratings, the standings' versions,
events, webhooks and the hall, so each confirmation's time is all it costs.

Printed per size: wall and CPU time (this process; the database server's is not counted) per
confirmation — p50, p95, max — the database queries of the first, the median and the last
confirmation (the last one finishes the round: the round's closing work comes with it),
and the ratio of the mean of the last 10 % to the first 10 % (flat is 1.0; the goal is ≤ 1.5).
Then the referee corrects a round-1 result through the API (its dependency closure re-rated in
the request), timed beside a replay of the pool from that result to its end (what a correction
cost before issue 50).
Wall time is noisy on a shared machine; CPU time and the query counts are the steadier figures.
``--bulk-middle``: only the first and the last tenth of the round go through the API, the middle
is confirmed and rated in one batch (:func:`confirm_in_bulk`); the ratio compares the same two
tenths, for a 10,000-player round on a machine too loaded to enter 5,000 results one by one.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

from big_event import build  # noqa: E402  (sets Django up)
from celery import current_app  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _tail_ratio(values: list[float], tenth: int | None = None) -> float:
    """The mean of the last ``tenth`` values over the first ``tenth``'s (a tenth of them by default)."""
    tenth = tenth or max(1, len(values) // 10)
    return statistics.mean(values[-tenth:]) / statistics.mean(values[:tenth])


def run(n: int, bulk_middle: bool = False) -> dict:
    from tournaments.api.http.tokens import issue as issue_token
    from tournaments.models import Match, RatingChange, TokenScope
    from tournaments.ratings import service as ratings
    from tournaments.rounds import pairing_manager as pm

    began = time.perf_counter()
    t, director = build(n)
    ratings.recompute(ratings.pool_for(t))
    (rnd,) = pm.generate_next(t, user=director)
    pm.publish_round(rnd, user=director)
    print(f"  N = {n}: rounds 1-4 built, round 5 published in {time.perf_counter() - began:.0f} s", flush=True)
    _token, key = issue_token(director, "bench", TokenScope.WRITE)
    client = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")
    matches = list(Match.objects.filter(round=rnd, entry_b__isnull=False).values_list("pk", "version"))
    random.Random(n).shuffle(matches)
    wall, cpu, queries = [], [], []
    tenth = max(1, len(matches) // 10)
    middle = matches[tenth:-tenth] if bulk_middle else []
    for i, (pk, version) in enumerate(matches):
        if middle and i == tenth:
            confirm_in_bulk(t, rnd, [m for m, _v in middle])
        if middle and tenth <= i < len(matches) - tenth:
            continue
        body = {"final": [5, random.randrange(5)], "version": version, "confirm": True}
        connection.queries_log.clear()  # the log keeps 9,000 queries: a full one counts nothing new
        with CaptureQueriesContext(connection) as captured:
            w, c = time.perf_counter(), time.process_time()
            answer = client.post(f"/api/matches/{pk}/report/", body, content_type="application/json")
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
        assert answer.status_code in (200, 201), answer.content[:300]
        queries.append(len(captured))
    rated = RatingChange.objects.filter(match__round=rnd).count()
    assert rated == 2 * len(matches), f"{rated} rating changes for {len(matches)} results"
    return {"wall": wall, "cpu": cpu, "queries": queries, "tenth": tenth,
            "correction": correct_round_one(t, client)}  # fmt: skip


def confirm_in_bulk(t, rnd, pks: list[int]) -> None:
    """``--bulk-middle``: the round's middle results confirmed at once (match rows, confirmed
    results, the pages' versions) and rated in one batch, as the Celery worker's batch rates
    them: the state the last tenth of the round meets, without an hour of requests on a
    loaded machine. Only the first and the last tenth are then timed through the API."""
    from django.utils import timezone

    from scoring.models import Result, ResultState
    from tournaments import cache
    from tournaments.models import Match, ResultStatus
    from tournaments.ratings import service as ratings

    rng = random.Random(len(pks))
    now = timezone.now()
    rows = list(Match.objects.filter(pk__in=pks))
    for m in rows:
        m.score_a, m.score_b, m.winner = 5, rng.randrange(5), "a"
        m.result_status, m.version, m.updated_at = ResultStatus.CONFIRMED, m.version + 1, now
    Match.objects.bulk_update(rows, ["score_a", "score_b", "winner", "result_status", "version", "updated_at"],
                              batch_size=2000)  # fmt: skip
    Result.objects.bulk_create(
        (Result(match=m, score_a=m.score_a, score_b=m.score_b, winner="a", state=ResultState.CONFIRMED,
                confirmed_at=now) for m in rows),
        batch_size=2000,
    )  # fmt: skip
    cache.invalidate_results(t.pk, rnd.pk)
    ratings.rate_new(ratings.pool_for(t))


def correct_round_one(t, client: Client) -> dict:
    """The referee corrects a round-1 result after round 5 was entered, through the API (its
    rating's closure replayed in the request); then, for comparison, the same pool replayed
    from that match's place to its end — what every correction cost before issue 50."""
    from tournaments.models import Match, RatingChange
    from tournaments.ratings import service as ratings

    match = Match.objects.filter(round__tournament=t, round__number=1, entry_b__isnull=False).order_by("table").first()
    final = [5, 1] if match.score_a != 5 or match.score_b != 1 else [5, 2]
    body = {"final": final, "version": match.version, "confirm": True, "reason": "score sheet re-read"}
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        w, c = time.perf_counter(), time.process_time()
        answer = client.post(f"/api/matches/{match.pk}/report/", body, content_type="application/json")
        closure = (time.perf_counter() - w, time.process_time() - c)
    assert answer.status_code in (200, 201), answer.content[:300]
    pool = ratings.pool_for(t)
    sequence = RatingChange.objects.filter(match=match).values_list("sequence", flat=True).first()
    w, c = time.perf_counter(), time.process_time()
    replayed = ratings.recompute(pool, sequence)
    tail = (time.perf_counter() - w, time.process_time() - c)
    return {"closure": closure, "queries": len(captured), "tail": tail, "tail_matches": replayed}


def main(sizes: list[int], bulk_middle: bool = False) -> None:
    setup_test_environment(debug=False)  # as in production: no query log
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # never a real send
    current_app.conf.task_always_eager = True  # the after-commit work runs in the request
    print(f"engine: {connection.vendor}")
    print(f"{'N':>6} {'results':>7} {'':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'last/first 10%':>15}"
          f" {'queries first':>14} {'median':>7} {'last':>5}")  # fmt: skip
    for n in sizes:
        old = setup_databases(verbosity=0, interactive=False)
        try:
            r = run(n, bulk_middle)
        finally:
            teardown_databases(old, verbosity=0)
        q = r["queries"]
        for what in ("wall", "cpu"):
            v = r[what]
            print(f"{n:>6} {len(v):>7} {what:>4} {1000 * _percentile(v, 0.5):>8.1f} {1000 * _percentile(v, 0.95):>8.1f}"
                  f" {1000 * max(v):>8.1f} {_tail_ratio(v, r['tenth']):>15.2f} {q[0]:>14} {statistics.median(q):>7.0f} {q[-1]:>5}", flush=True)  # fmt: skip
        fix = r["correction"]
        print(f"{n:>6} a round-1 correction after round 5: {1000 * fix['closure'][0]:.0f} ms wall,"
              f" {1000 * fix['closure'][1]:.0f} ms CPU, {fix['queries']} queries (its closure replayed);"
              f" the pool replayed from it to the end instead ({fix['tail_matches']} matches):"
              f" {1000 * fix['tail'][0]:.0f} ms wall, {1000 * fix['tail'][1]:.0f} ms CPU", flush=True)  # fmt: skip


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--bulk-middle"]
    main([int(a) for a in args] or [1000], bulk_middle="--bulk-middle" in sys.argv)
