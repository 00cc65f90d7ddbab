"""The CPU one watcher's request costs, by kind and answer (issue 50, part 3): what the
real-server bench (``bench/watchers.py``) cannot tell apart on a shared machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/watch_cpu.py
    # options: --players 400 --repeat 300 --cache-url redis://127.0.0.1:6379/13

It makes a throwaway PostgreSQL database, a Swiss of ``--players`` players with round 1
published and a third of its results confirmed, a match recorded live, and asks every page a
watcher polls through Django's whole handler (every middleware, the Redis cache, as the
server runs it, ``DEBUG`` off) in this one process, timing each request's CPU
(``time.process_time``: other processes on the machine do not count):

- ``304``: the same address asked again naming the tag it was given (``If-None-Match``);
- ``200 kept``: a new visitor (no tag), the page's body in the cache;
- ``200 changed``: a result of the page's round confirmed (outside the timing) and the page
  asked again with the tag it held: the body rebuilt (what the first visitor after a change
  pays; the others then get ``200 kept``).

The test client's own share (building the request, reading the answer) is in every figure;
it is the same before and after a change of the server.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_results import drop_database, publish_through, throwaway_database  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=400)
    p.add_argument("--repeat", type=int, default=300, help="requests timed per kind and answer")
    p.add_argument("--changed", type=int, default=30, help="'200 changed' requests timed per kind")
    p.add_argument("--cache-url", default=os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/13"))
    return p.parse_args()


def timed(call, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.process_time()
        call()
        out.append((time.process_time() - t0) * 1000)
    return out


def measure(phone, path: str, head: dict, repeat: int, changes: int, change) -> list[list[float]]:
    """(304s, 200s of a kept page, 200s after a change) of one address, CPU ms each."""
    time.sleep(1.1)  # the live stamp and the standings may lag a change by a second (stale_ok)
    first = phone.get(path, **head)
    assert first.status_code == 200, (path, first.status_code)
    tag = first["ETag"]

    def again():
        return phone.get(path, HTTP_IF_NONE_MATCH=tag, **head)

    for _ in range(5):  # warm: imports, templates, the process's kept rows
        again()
    not_modified = timed(again, repeat)
    assert again().status_code == 304, path
    kept = timed(lambda: phone.get(path, **head), repeat)
    changed: list[float] = []
    for _ in range(changes):
        change()
        time.sleep(0.002)
        changed += timed(again, 1)
    return [not_modified, kept, changed]


def fig(values: list[float]) -> str:
    """Median / p95."""
    if not values:
        return "—"
    return f"{statistics.median(values):5.2f} / {sorted(values)[max(0, int(len(values) * 0.95) - 1)]:5.2f}"


def main() -> int:
    args = parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must point at PostgreSQL")
    db_url, name = throwaway_database(url)
    os.environ.update(DATABASE_URL=db_url, CONN_MAX_AGE="600", DEBUG="false", CACHE_URL=args.cache_url,
                      DJANGO_SETTINGS_MODULE="zarik.settings", API_RATE_ANON="1000000/min")  # fmt: skip
    try:
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command
        from django.test import Client
        from watchers import build

        from scoring.live.models import LiveRecording
        from tournaments.models import Match, ResultStatus

        call_command("migrate", verbosity=0)
        cache.clear()
        data = build(args.players, 1)
        publish_through(data["tournament_id"], 1)
        matches = list(Match.objects.filter(round__tournament_id=data["tournament_id"]).order_by("table"))
        for m in matches[: len(matches) // 3]:
            m.score_a, m.score_b, m.winner, m.result_status = 5, 2, "a", ResultStatus.CONFIRMED
            m.save()
        live_match = matches[-1]
        LiveRecording.objects.create(match=live_match, tournament_id=data["tournament_id"], seq=12,
                                           snapshot={"names": {"white": "A", "black": "B"}, "phase": "roll"})  # fmt: skip
        slug = data["slug"]
        entry = data["entries"][0]
        kinds = {
            "live stamp": (f"/t/{slug}/live.json", {}),
            "pairings": (f"/t/{slug}/pairings/?round=1", {}),
            "standings": (f"/t/{slug}/standings/", {}),
            "player page": (f"/t/{slug}/player/{entry}/", {}),
            "hall screen": (f"/t/{slug}/hall/frame/?page=1&every=10", {"HTTP_HX_REQUEST": "true"}),
            "live board JSON": (f"/t/{slug}/match/{live_match.pk}/live/state.json", {}),
            "API live board": (f"/api/matches/{live_match.pk}/live/", {"HTTP_ACCEPT": "application/json"}),
        }
        flips = iter(range(10**9))

        def confirm_one() -> None:
            """A result of round 1 confirmed or corrected (table 1's score flips each time)."""
            m = Match.objects.get(pk=matches[0].pk)
            won = next(flips) % 2 == 0
            m.score_a, m.score_b, m.winner = (2, 5, "b") if won else (5, 2, "a")
            m.result_status = ResultStatus.CONFIRMED
            m.save()

        print(f"{args.players} players, round 1 published, {len(matches) // 3} results confirmed; "
              f"CPU ms per request (this process), median / p95 of {args.repeat} "
              f"({args.changed} for '200 changed'); load average {os.getloadavg()[0]:.2f}")  # fmt: skip
        print(f"  {'kind':<16} {'304':>14} {'200 kept':>14} {'200 changed':>14}")
        for kind, (path, extra) in kinds.items():
            changes = 0 if kind in ("live board JSON", "API live board") else args.changed
            row = measure(Client(), path, {"HTTP_HOST": "127.0.0.1", "HTTP_ACCEPT_LANGUAGE": "ru", **extra},
                          args.repeat, changes, confirm_one)  # fmt: skip
            print(f"  {kind:<16} " + " ".join(f"{fig(values):>14}" for values in row))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return 0
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        drop_database(url, name)


if __name__ == "__main__":
    sys.exit(main())
