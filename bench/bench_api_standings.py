"""Standings JSON over the API for a 1,000-player Swiss, warm (issue 14: under 100 ms).

Run: .venv/bin/python bench/bench_api_standings.py [players] [rounds]

A throwaway test database (SQLite in memory, or ``DATABASE_URL``'s server with a
``test_`` copy) is filled in bulk with a Swiss of ``players`` and ``rounds``
finished rounds; then ``GET /api/tournaments/<slug>/standings/`` is requested
through Django's test client: once cold (built from the database and cached
under the tournament's cache version), then warm, and the warm median is printed.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

AIM_MS = 100.0


def main(players: int = 1000, rounds: int = 10, repeats: int = 30) -> None:
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        from tests.factories import swiss_event

        began = time.perf_counter()
        t = swiss_event(players, rounds_done=rounds, open_round=False)
        print(f"built a {players}-player Swiss, {rounds} rounds, in {time.perf_counter() - began:.1f} s")
        client = APIClient()
        url = f"/api/tournaments/{t.slug}/standings/?page_size=500"  # the largest page
        began = time.perf_counter()
        first = client.get(url)
        cold = (time.perf_counter() - began) * 1000
        assert first.status_code == 200, first.status_code
        assert len(first.json()["sections"][0]["rows"]) == min(players, 500)
        warm = []
        for _ in range(repeats):
            began = time.perf_counter()
            answer = client.get(url)
            warm.append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200
        median = statistics.median(warm)
        print(f"standings JSON, {players} players: cold {cold:.0f} ms, warm median {median:.1f} ms "
              f"(best {min(warm):.1f} ms, {len(answer.content) / 1024:.0f} KiB); aim < {AIM_MS:.0f} ms: "
              f"{'ok' if median < AIM_MS else 'MISSED'}")  # fmt: skip
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
