"""CPU of a report and of a confirmation through the API, by layer, in-process (issue 50).

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/zarik_bench .venv/bin/python bench/entry_profile.py
     options: --players 200 --rounds 2 --rated/--no-rated

A throwaway test database gets ``bench/load_results.py``'s event (``--players`` players, one
API token each, rounds of players/2 matches, published), rated unless ``--no-rated``. Then,
table by table, player A loads the match (GET), reports (POST ``report/``) and player B
confirms (POST ``confirm/``), as on the real server, with the Celery tasks run in the
request (eager): the work a Celery worker does for a confirmation (the ratings, webhooks)
shows as "worker: …". :mod:`bench.layers` samples the CPU of each request and prints, per
action, the CPU milliseconds a request and how they split by layer (middleware, view,
workflow, ratings, cache, events, the ETag after the write…). Wall time is not used.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

import django  # noqa: E402

django.setup()

from celery import current_app  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402
from layers import LayerSampler, table  # noqa: E402
from load_results import build, publish_through  # noqa: E402


def run(args) -> None:
    from tournaments.models import Tournament

    data = build(SimpleNamespace(players=args.players, steady_rounds=args.rounds, capacity="1",
                                 capacity_seconds=1.0))  # fmt: skip
    Tournament.objects.filter(pk=data["tournament_id"]).update(rated=args.rated)
    publish_through(data["tournament_id"], args.rounds)
    sampler = LayerSampler()
    cpu: dict[str, list[float]] = {"load match": [], "report": [], "confirm": []}
    clients: dict[str, Client] = {}

    def client(key: str) -> Client:
        if key not in clients:
            clients[key] = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en",
                                  HTTP_ACCEPT="application/json")  # fmt: skip
        return clients[key]

    def timed(label: str, call):
        sampler.label = label
        began = time.process_time()
        answer = call()
        cpu[label].append(time.process_time() - began)
        assert answer.status_code in (200, 201), (label, answer.status_code, answer.content[:300])
        return answer.json()

    warm = args.warm
    sampler.start()
    try:
        for number in range(1, args.rounds + 1):
            for i, m in enumerate(data["rounds"][number]):
                if warm and i < warm and number == 1:  # the first requests import and compile
                    sampler.stop()
                seen = timed("load match", lambda m=m: client(m["a"]).get(f"/api/matches/{m['id']}/"))
                out = timed("report", lambda m=m, seen=seen: client(m["a"]).post(
                    f"/api/matches/{m['id']}/report/", {"final": list(m["want"]), "version": seen["version"]},
                    content_type="application/json"))  # fmt: skip
                timed("confirm", lambda m=m, out=out: client(m["b"]).post(
                    f"/api/matches/{m['id']}/confirm/", {"result": out["id"], "version": out["match_version"]},
                    content_type="application/json"))  # fmt: skip
                if warm and i < warm and number == 1:
                    for values in cpu.values():
                        values.pop()
                    sampler.start()
    finally:
        sampler.stop()
    print(f"engine {connection.vendor}, {args.players} players, {args.rounds} rounds, rated={args.rated}, "
          f"{len(cpu['confirm'])} tables timed")  # fmt: skip
    for label, values in cpu.items():
        print(table(sampler, label, 1000 * sum(values) / len(values)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--warm", type=int, default=5, help="untimed tables first (imports, compiled templates)")
    p.add_argument("--rated", action=argparse.BooleanOptionalAction, default=True)
    args = p.parse_args()
    setup_test_environment(debug=False)  # as in production: no query log
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # never a real send
    current_app.conf.task_always_eager = True  # the worker's share runs here, where it is sampled
    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
