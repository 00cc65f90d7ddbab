"""A big Swiss end to end on PostgreSQL (issue 32): each step's wall time and peak memory.

Run: .venv/bin/python bench/big_event.py 1000 10000 [100000]

For each size N a throwaway database (``DATABASE_URL``'s server, default
``postgres://postgres@127.0.0.1:5432/zarik_bench``; the runner works in its ``test_`` copy)
gets N players, every one with an email address that takes notifications, entered
in one rated Swiss. Rounds 1–4 are paired and published through the round manager,
their results written in bulk (5:x, random winners; the setup, not measured) and
closed through :func:`tournaments.rounds.flow.close`. Then, measured:

- ``generate``: round 5 paired and written (``pm.generate_next``, the body of the
  organiser's button's background job, as a worker runs it);
- ``publish``: the publication as the request makes it, then the email task as a
  worker runs it: it only queues batches of emails (Celery not eager here; the
  queued messages are counted, nothing is sent). ``send batch`` sends one batch
  into Django's in-memory outbox;
- the public pairings page (page 1, a search by name, by draw number) and the
  standings page, cold (nothing cached anywhere: the shared cache emptied, so this
  process keeps nothing either, in a web process that has served each page once: its
  imports done, its templates compiled) and warm; their HTML size;
- the API's standings (first page);
- one report by a player and its confirmation by the opponent (workflow), then the
  pages just after it (pairings rebuilt; the standings shown meanwhile are the previous
  ones, at most ``STANDINGS_STALE_SECONDS`` old); another result, and a second later the
  standings (first page, page 3) and the API's as the visitor's request rebuilds them
  (no worker: this process reads only the changed round again);
- another confirmation, the standings' rebuild a worker runs after it
  (``tournaments.refresh_standings``), and the first visitor's standings after it;
- the Excel workbook, the JSON archive and the recompute of the pool's ratings.

Wall time is what the step took on this machine (shared: other processes' load counts);
``cpu s`` is this process's CPU time in it (the database server's is not counted).
Memory is the peak of the process's resident set (RSS, from /proc/self/statm, sampled
every 5 ms by a thread) above its size when the step began (after ``gc.collect()`` and
glibc's ``malloc_trim(0)`` return freed memory): it counts what the database driver
holds, which ``tracemalloc`` would not see. The table ends with the
growth ratio of each step between consecutive sizes: of the wall time, then of the CPU time
(on a shared machine the CPU's is the one to read).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zarik_bench")
# What is measured here runs in workers and commands: their statement limit, not a web
# request's 20 s, which cut the setup's writes of 100,000 players on a busy machine.
from zarik.serving import run_as_batch  # noqa: E402

run_as_batch()

import django  # noqa: E402

django.setup()

from celery import current_app  # noqa: E402
from celery.signals import before_task_publish  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core import mail  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")
LIBC = ctypes.CDLL("libc.so.6")
QUEUED: Counter[str] = Counter()


def _count_queued(sender=None, body=None, **kwargs) -> None:
    QUEUED[sender] += 1


class Peak:
    """The peak RSS above the start, sampled by a thread while a step runs."""

    def __init__(self) -> None:
        self.running = False
        self.peak = 0

    @staticmethod
    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE

    def _watch(self) -> None:
        while self.running:
            self.peak = max(self.peak, self.rss())
            time.sleep(0.005)

    @contextmanager
    def measure(self, rows: dict, name: str):
        gc.collect()
        LIBC.malloc_trim(0)  # hand freed memory back, so the next step's growth shows in RSS
        self.running, start = True, self.rss()
        self.peak = start
        thread = threading.Thread(target=self._watch, daemon=True)
        thread.start()
        began, cpu = time.perf_counter(), time.process_time()
        note: dict = {}
        try:
            yield note
        finally:
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
            self.running = False
            thread.join()
            self.peak = max(self.peak, self.rss())
            rows[name] = {"s": wall, "cpu": cpu, "mb": (self.peak - start) / 2**20, **note}


def build(n: int):
    """N players with emails in a rated Swiss, rounds 1–4 paired, published, played and closed."""
    from django.contrib.auth import get_user_model

    from clubs.models import Player
    from tournaments.cache import invalidate
    from tournaments.models import (
        Entry,
        Match,
        Official,
        OfficialRole,
        ResultStatus,
        RoundStatus,
        Tournament,
    )
    from tournaments.rounds import flow
    from tournaments.rounds import pairing_manager as pm

    rng = random.Random(n)
    director = get_user_model().objects.create_user("bench-director", "director@example.org", "x")
    t = Tournament.objects.create(
        name=f"Big Swiss {n}", slug=f"big-{n}", public=True, system="swiss", match_length=5,
        rounds_planned=9, starts_on="2026-03-01", rated=True,
    )  # fmt: skip
    Official.objects.create(tournament=t, user=director, role=OfficialRole.ORGANISER)
    players = Player.objects.bulk_create(
        Player(last_name=f"Игроков{i:05d}", first_name="Пётр", last_name_latin=f"Igrokov{i:05d}",
               first_name_latin="Petr", email=f"p{i}@example.org", email_notifications=True)
        for i in range(n)
    )  # fmt: skip
    Entry.objects.bulk_create(Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(players))
    for _number in range(1, 5):
        (rnd,) = pm.generate_next(t, user=director)
        pm.publish_round(rnd, user=director)
        # One UPDATE per score (10 of them): a bulk_update's CASE over 50,000 rows took minutes.
        by_score: dict[tuple[str, int], list[int]] = {}
        for pk in rnd.matches.filter(entry_b__isnull=False).values_list("pk", flat=True):
            by_score.setdefault((rng.choice("ab"), rng.randrange(0, 5)), []).append(pk)
        for (side, loser), pks in by_score.items():
            score_a, score_b = (5, loser) if side == "a" else (loser, 5)
            Match.objects.filter(pk__in=pks).update(
                score_a=score_a, score_b=score_b, winner=side, result_status=ResultStatus.CONFIRMED
            )
        invalidate(t.pk)  # update() sends no signals: the pages' versions move on here
        assert flow.close(rnd, director) == flow.CLOSED
        assert rnd.status == RoundStatus.FINISHED
    return t, director


def run(n: int, rows: dict) -> dict:
    from django.contrib.auth import get_user_model

    from scoring import workflow
    from scoring.archive import backup
    from tournaments.cache import KeptInProcess
    from tournaments.jobs.export_tasks import build_workbook
    from tournaments.models import Match
    from tournaments.notifications import tasks as notification_tasks
    from tournaments.public import refresh
    from tournaments.ratings import service as ratings
    from tournaments.rounds import pairing_manager as pm

    peak = Peak()
    began = time.perf_counter()
    t, director = build(n)
    print(f"  built {n} players, rounds 1-4 in {time.perf_counter() - began:.0f} s", flush=True)
    pool = ratings.pool_for(t)
    with peak.measure(rows, "ratings recompute"):
        ratings.recompute(pool)

    with peak.measure(rows, "generate + write"):
        (rnd,) = pm.generate_next(t, user=director)

    QUEUED.clear()
    with peak.measure(rows, "publish (request)") as note:
        pm.publish_round(rnd, user=director)
        note["queued"] = sum(QUEUED.values())
    with peak.measure(rows, "publish: email task queues batches") as note:
        QUEUED.clear()
        notification_tasks.send_notifications.run("round.published", t.pk, {"round": rnd.pk, "number": rnd.number})
        note["queued"] = QUEUED["tournaments.send_notifications"]
    batches = note["queued"]
    mail.outbox = []
    first = _first_batch(t, rnd)
    with peak.measure(rows, "send one batch (worker)") as note:
        notification_tasks.send_notifications.run("round.published", t.pk, first)
        note["emails"] = len(mail.outbox)
    per_batch = len(mail.outbox)
    mail.outbox = []

    client = Client()
    slug = t.slug
    pages = {
        "overview": f"/t/{slug}/",
        "pairings": f"/t/{slug}/pairings/",
        "pairings search name": f"/t/{slug}/pairings/?q=Igrokov{n // 2:05d}",
        "pairings search number": f"/t/{slug}/pairings/?q={n - 3}",
        "pairings page 3": f"/t/{slug}/pairings/?page=3",
        "standings": f"/t/{slug}/standings/",
        "standings page 3": f"/t/{slug}/standings/?page=3",
        "hall": f"/t/{slug}/hall/frame/",
        "API standings": f"/api/tournaments/{slug}/standings/",
    }
    # A web process that has served before: its imports done and its templates compiled (the
    # first request of a process pays those once); then nothing cached anywhere again.
    for url in pages.values():
        assert client.get(url).status_code == 200
    cache.clear()
    KeptInProcess.clear_all()
    _pages(client, peak, rows, pages, "")

    a_user = get_user_model().objects.create_user("bench-a", "", "x")
    b_user = get_user_model().objects.create_user("bench-b", "", "x")
    match = Match.objects.filter(round=rnd, entry_b__isnull=False).select_related("entry_a__player", "entry_b__player").first()
    for user, entry in ((a_user, match.entry_a), (b_user, match.entry_b)):
        entry.player.user = user
        entry.player.save(update_fields=["user"])
    match.refresh_from_db()
    with peak.measure(rows, "report"):
        report = workflow.submit_result(match.pk, a_user, version=match.version, final=(5, 2))
    match.refresh_from_db()
    with peak.measure(rows, "confirm"):
        workflow.confirm_result(match.pk, report.pk, b_user, version=match.version)
    _pages(client, peak, rows, {k: pages[k] for k in ("pairings", "standings", "API standings")}, "after confirm: ")
    # A second later the previous standings are too old to be shown meanwhile: the next
    # visitor's request rebuilds them (no worker here), from the rounds this process kept.
    confirm_another(Match.objects.filter(round=rnd, entry_b__isnull=False).exclude(pk=match.pk).first(), director)
    time.sleep(settings.STANDINGS_STALE_SECONDS + 0.1)
    _pages(client, peak, rows, {k: pages[k] for k in ("standings", "standings page 3", "API standings")},
           "1 s after a result: ")  # fmt: skip

    # With a worker: the next confirmation queues the standings' rebuild, which the worker runs
    # before the first visitor comes (another process: none of this one's kept snapshots).
    confirm_another(Match.objects.filter(round=rnd, entry_b__isnull=False, result_status="pending").first(), director)
    KeptInProcess.clear_all()
    with peak.measure(rows, "worker: standings rebuilt after a change"):
        refresh.refresh_standings.run(t.pk)
    KeptInProcess.clear_all()
    _pages(client, peak, rows, {k: pages[k] for k in ("standings", "API standings")}, "after the rebuild: ")

    # Both into files, as the export job and a download do: the memory is what making them
    # holds, not the finished file.
    with tempfile.TemporaryDirectory() as folder:
        book, archive = Path(folder) / "book.xlsx", Path(folder) / "archive.json"
        with peak.measure(rows, "Excel workbook") as note:
            build_workbook(t, book, "ru")
            note["kb"] = book.stat().st_size / 1024
        with peak.measure(rows, "archive export") as note:
            with archive.open("w", encoding="utf-8") as text:
                backup.export(t, text)
            note["kb"] = archive.stat().st_size / 1024
        with archive.open(encoding="utf-8") as text:
            assert json.load(text)["slug"] == t.slug
    rows["_emails"] = {"batches": batches, "per_batch": per_batch}
    return rows


def confirm_another(match, director) -> None:
    """A referee enters one more result, confirmed (not measured)."""
    from scoring import workflow

    workflow.submit_result(match.pk, director, version=match.version, final=(5, 1), confirm=True)


def _first_batch(t, rnd) -> dict:
    """The data of the first batch the email task queued (as the worker would receive it)."""
    from tournaments.events import Event
    from tournaments.notifications import event_emails

    data = {"round": rnd.pk, "number": rnd.number}
    ranges = event_emails.batches(Event("round.published", t.pk, data))
    return {**data, "tables": list(ranges[0])} if ranges else data


def _pages(client, peak, rows, pages, prefix) -> None:
    for label, url in pages.items():
        for state in ("cold", "warm"):
            if state == "cold" and not prefix:
                cache.clear()
            with peak.measure(rows, f"{prefix}{label} {state}") as note:
                response = client.get(url)
                note["kb"] = len(response.content) / 1024
            assert response.status_code == 200, (url, response.status_code)
            if prefix:
                break


def main(sizes: list[int]) -> None:
    setup_test_environment(debug=False)  # as in production: no query log
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # never a real send
    current_app.conf.task_always_eager = False  # publishing queues; nothing runs in the request
    before_task_publish.connect(_count_queued, weak=False)
    results = {}
    for n in sizes:
        old = setup_databases(verbosity=0, interactive=False)
        try:
            print(f"N = {n}", flush=True)
            results[n] = {}
            run(n, results[n])
        except Exception:
            # What was measured before the failure is printed, not lost with the run.
            results[n].setdefault("_emails", {"batches": 0, "per_batch": 0})
            _print(results)
            raise
        finally:
            teardown_databases(old, verbosity=0)
        _print(results)


def _print(results: dict) -> None:
    sizes = sorted(results)
    steps = [k for k in results[sizes[0]] if not k.startswith("_")]
    width = max(map(len, steps)) + 2
    head = f"{'step':<{width}}" + "".join(f"{n:>9} s {'cpu s':>7} {'MB':>6} {'KB':>6}" for n in sizes)
    ratios = [f"  x{b // 1000}k/{a // 1000}k" if a >= 1000 else f" x{b}/{a}" for a, b in zip(sizes, sizes[1:], strict=False)]
    print(head + "".join(f"{r:>12}{'cpu':>6}" for r in ratios))
    for step in steps:
        line = f"{step:<{width}}"
        for n in sizes:
            r = results[n].get(step, {})
            kb = r.get("kb")
            line += (f"{r.get('s', 0):>11.3f} {r.get('cpu', 0):>7.3f} {r.get('mb', 0):>6.0f}"
                     f" {('' if kb is None else f'{kb:.0f}'):>6}")  # fmt: skip
        for a, b in zip(sizes, sizes[1:], strict=False):
            sa, sb = results[a].get(step, {}).get("s"), results[b].get(step, {}).get("s")
            ca, cb = results[a].get(step, {}).get("cpu"), results[b].get(step, {}).get("cpu")
            line += f"{(sb / sa if sa and sb else 0):>12.1f}{(cb / ca if ca and cb else 0):>6.1f}"
        print(line)
    for n in sizes:
        e = results[n]["_emails"]
        print(f"N={n}: publish queued {e['batches']} email batches; one batch sent {e['per_batch']} emails")
    sys.stdout.flush()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1000])
