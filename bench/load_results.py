"""Load benchmark of result entry over HTTP against gunicorn, PostgreSQL, Redis and a Celery worker.

One command prepares everything and cleans up after itself:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/load_results.py
    # options: --players 400 --actors 200 --think 5 --workers 4 --threads 1 --steady-rounds 4
    #          --visitors 40 --capacity 20,40,60,80,120 --cache-url redis://127.0.0.1:6379/9

It creates a throwaway database next to the one named, migrates it, builds a Swiss of
``--players`` players with rounds of ``players/2`` matches (each published through the
director's service when its phase starts, as in a real event; the later ones stay drafts
the public pages do not read until then), issues an
API token to every player, starts ``gunicorn`` (``--workers`` × ``--threads``) and one
Celery worker (ratings, webhooks and emails run there, as in production) with the Redis
cache, and then drives them over HTTP with real requests:

1. ramp-up and steady phase: ``--actors`` players, each owning one table per round, load
   the match (GET ``/api/matches/<id>/``), report it as player A (POST ``report/``) and
   confirm it as player B (POST ``confirm/``), with exponential think times of mean
   ``--think`` seconds, started over ``--ramp`` seconds; meanwhile ``--visitors`` (arriving
   over the same ramp) read the
   public standings and the pairings of the rounds being played (whose scores change). One confirmation in five is followed at once by a
   read of the public pairings page: it must already show the confirmed score (staleness).
2. burst: a fresh round; every actor reports at the same instant (a barrier), then every
   actor confirms at the same instant.
3. capacity: open-loop arrivals at each rate of ``--capacity`` (actions per second) for
   ``--capacity-seconds``; the highest rate whose report/confirm p95 stays under 300 ms.

After each phase every match is checked in the database: exactly one confirmed result equal
to what was reported (``lost``), never two (``duplicated``). Printed per phase and action:
count, p50/p95/p99/max latency, failures by kind, and the web workers' CPU milliseconds per
request (from /proc). Exit status 1 if anything was lost or duplicated.

Everything runs on the one machine (client threads included), so the figures are an upper
bound of what the server alone costs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.public.paging import PAGE_ROWS  # noqa: E402  (after ROOT is on the path)
from zarik.serving import web_concurrency  # noqa: E402

GOALS = {"steady": (300.0, 100.0), "burst": (1500.0, None)}  # p95 ms: actions, public pages
ACTIONS = ("report", "confirm")


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=400, help="players (even); a round has players/2 matches")
    p.add_argument("--actors", type=int, default=200, help="simulated players entering results")
    p.add_argument("--think", type=float, default=5.0, help="mean think time before each action, s")
    p.add_argument("--ramp", type=float, default=10.0, help="actors start over this many seconds")
    p.add_argument("--steady-rounds", type=int, default=3, help="rounds each actor plays in the steady phase")
    p.add_argument("--visitors", type=int, default=40, help="public readers during the steady phase")
    p.add_argument("--visitor-think", type=float, default=2.0, help="mean pause between a visitor's reads, s")
    p.add_argument("--workers", type=int, default=web_concurrency(),
                   help="gunicorn worker processes (as bin/serve: WEB_CONCURRENCY, else 2 per core)")
    p.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (1: sync workers, as bin/serve; more: gthread)")
    p.add_argument("--celery-pool", default="prefork", help="the Celery worker's pool (prefork, threads, solo)")
    p.add_argument("--worker-nice", type=int, default=10,
                   help="run the Celery worker at this niceness (10, as bin/serve's CELERY_NICE: web requests "
                        "get the CPU first; 0: equal)")
    p.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    p.add_argument("--cache-url", default="redis://127.0.0.1:6379/9", help="Redis for the shared cache")
    p.add_argument("--broker-url", default="redis://127.0.0.1:6379/10", help="Redis for Celery")
    p.add_argument("--capacity", default="20,30,40,50,60,70,80,100,120", help="open-loop rates to try, actions/s")
    p.add_argument("--capacity-seconds", type=float, default=15.0, help="length of each capacity step")
    p.add_argument("--skip", default="", help="phases to skip: steady,burst,capacity")
    p.add_argument("--timeout", type=float, default=900.0, help="hard stop of the whole run, s")
    p.add_argument("--trace", default="", help="write every request (phase, start s, kind, ms) to this CSV")
    return p.parse_args()


# --------------------------------------------------------------------------------------- helpers


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def throwaway_database(url: str) -> tuple[str, str]:
    import psycopg

    parts = urlsplit(url)
    name = f"zarik_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), name


def drop_database(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(urlunsplit(urlsplit(url)._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ticks(root_pid: int) -> int:
    """User + system clock ticks of a process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = defaultdict(list)
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        pid = int(entry)
        children[int(fields[1])].append(pid)
        # utime + stime, + cutime + cstime: a worker gunicorn recycled lives on in its parent's
        ticks[pid] = sum(int(f) for f in fields[11:15])
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total


def machine_ticks() -> dict[int, tuple[str, int]]:
    """pid → (group, user + system ticks) of every process on the machine, to see who used the CPU."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        ticks = sum(int(f) for f in fields[11:15])  # + the reaped children's (recycled workers)
        out[int(entry)] = (_group(cmd, raw[raw.index("(") + 1 : raw.rindex(")")]), ticks)
    return out


def _group(cmd: str, comm: str) -> str:
    for needle, name in (("gunicorn", "web"), ("celery", "celery"), ("load_results", "client"),
                         ("postgres", "postgres"), ("redis", "redis")):  # fmt: skip
        if needle in cmd or needle in comm:
            return name
    return "other"


def cpu_by_group(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds per group between two :func:`machine_ticks` snapshots."""
    hz = os.sysconf("SC_CLK_TCK")
    out: Counter = Counter()
    for pid, (group, ticks) in after.items():
        out[group] += (ticks - before.get(pid, (group, 0))[1]) / hz
    return dict(out)


def own_cpu() -> float:
    """CPU seconds of this process (the load client's threads), user + system."""
    times = os.times()
    return times.user + times.system


class MachineLoad:
    """The machine's busy share of all cores, sampled every second from /proc/stat, so a phase's
    percentiles can be read next to how busy the machine was when the requests were made."""

    def __init__(self, started: float):
        self.started = started
        self.samples: list[tuple[float, float]] = []  # (seconds since start, busy share 0–1)
        self._stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    @staticmethod
    def _read() -> tuple[int, int]:
        fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle + iowait
        return sum(fields) - idle, sum(fields)

    def _run(self) -> None:
        busy0, total0 = self._read()
        while not self._stop.wait(1.0):
            busy, total = self._read()
            share = (busy - busy0) / max(1, total - total0)
            self.samples.append((time.monotonic() - self.started, share))
            busy0, total0 = busy, total

    def between(self, start: float, end: float) -> float:
        inside = [share for t, share in self.samples if start < t <= end + 1]
        return sum(inside) / len(inside) if inside else float("nan")


def windows(bench: Bench, phase: str, seconds: float = 10.0) -> None:
    """Per window of the phase: requests a second, report/confirm and page p95, machine CPU."""
    rows = [(t, kind, ms) for ph, t, kind, ms in bench.trace if ph == phase]
    if not rows:
        return
    first = min(t for t, _k, _ms in rows)
    by_window: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for t, kind, ms in rows:
        by_window[int((t - first) // seconds)].append((kind, ms))
    print(f"  by {seconds:.0f} s window: requests/s, p95 of report+confirm / of pages, machine CPU (cores)")
    for w in sorted(by_window):
        items = by_window[w]
        actions = [ms for kind, ms in items if kind in ACTIONS]
        pages = [ms for kind, ms in items if kind in ("pairings", "standings")]
        start = first + w * seconds
        cpu = bench.load.between(start, start + seconds) * (os.cpu_count() or 1)
        print(f"    {w * seconds:4.0f}–{(w + 1) * seconds:<4.0f}s {len(items) / seconds:6.1f}/s  "
              f"{percentile(actions, 95):7.1f} / {percentile(pages, 95):7.1f} ms  {cpu:4.2f}")  # fmt: skip


def db_ticks(name: str) -> int:
    """CPU ticks of the PostgreSQL backends serving the bench database (same host, /proc)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name])
        pids = [row[0] for row in cursor.fetchall()]
    total = 0
    for pid in pids:
        try:
            raw = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        total += int(fields[11]) + int(fields[12])
    return total


# ------------------------------------------------------------------------------------------ data


def build(args) -> dict:
    """The tournament, its rounds (all published), one API token per player."""
    import datetime as dt

    from django.contrib.auth import get_user_model

    from clubs.models import Player
    from tournaments.api.http import tokens
    from tournaments.models import Entry, Match, Round, RoundStatus, Tournament

    users = get_user_model()
    slug = f"bench-{uuid.uuid4().hex[:8]}"
    t = Tournament.objects.create(
        name="Load benchmark", slug=slug, public=True, starts_on=dt.date(2026, 1, 1), match_length=5,
        rounds_planned=None,
    )  # fmt: skip
    player_users = users.objects.bulk_create(users(username=f"{slug}-p{i}") for i in range(args.players))
    players = Player.objects.bulk_create(
        Player(last_name=f"Bench{i:03d}", first_name="Load", user=u) for i, u in enumerate(player_users)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(players)
    )
    keys = {u.pk: tokens.issue(u, "bench", "write")[1] for u in player_users}
    # steady, burst, then as many rounds as the capacity steps consume (each step its own matches)
    half = args.players // 2
    capacity = sum(int(float(r) * args.capacity_seconds / 2) + 1 for r in args.capacity.split(","))
    n_rounds = args.steady_rounds + 1 + math.ceil(capacity / half) + 1
    # As in a real event, a round is published when it is played: the steady phase's rounds
    # now, the later ones (drafts, invisible to the public pages) by publish_through().
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=n, match_length=5,
              status=RoundStatus.PUBLISHED if n <= args.steady_rounds else RoundStatus.DRAFT)
        for n in range(1, n_rounds + 1)
    )  # fmt: skip
    matches = []
    for rnd in rounds:
        shift = rnd.number  # a different opponent each round
        for k in range(half):
            a, b = entries[k], entries[half + (k + shift) % half]
            matches.append(Match(round=rnd, table=k + 1, entry_a=a, entry_b=b, match_length=5))
    Match.objects.bulk_create(matches, batch_size=2000)
    by_round: dict[int, list[dict]] = defaultdict(list)
    user_of = {e.pk: e.player.user_id for e in Entry.objects.filter(tournament=t).select_related("player")}
    for m in Match.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "table"):
        want = (5, m.table % 5) if m.table % 2 else (m.table % 5, 5)
        by_round[m.round.number].append({
            "id": m.pk, "round": m.round.number, "table": m.table, "want": want,
            "a": keys[user_of[m.entry_a_id]], "b": keys[user_of[m.entry_b_id]],
        })  # fmt: skip
    return {"slug": slug, "rounds": by_round, "tournament_id": t.pk}


def publish_through(tournament_id: int, number: int) -> None:
    """Publish the draft rounds up to ``number`` through the director's service (not timed)."""
    from django.db import close_old_connections

    from tournaments.models import Round, RoundStatus
    from tournaments.rounds.pairing_manager.lifecycle import publish_round

    close_old_connections()
    drafts = Round.objects.filter(tournament_id=tournament_id, status=RoundStatus.DRAFT, number__lte=number)
    for rnd in drafts.select_related("tournament").order_by("number"):
        publish_round(rnd)


def wait_rated(matches: list[int], seconds: float = 20.0) -> tuple[int, float]:
    """(how many of ``matches`` are rated, seconds waited): the ratings follow in batches."""
    from django.db import close_old_connections

    from tournaments.models import RatingChange

    close_old_connections()
    started = time.monotonic()
    while True:
        rated = RatingChange.objects.filter(match_id__in=matches).values("match_id").distinct().count()
        if rated >= len(matches) or time.monotonic() - started > seconds:
            return rated, time.monotonic() - started
        time.sleep(0.2)


def check(rounds: list[int], intended: dict[int, tuple[int, int]], tournament_id: int) -> tuple[int, int]:
    """(lost, duplicated) among the matches the phase acted on."""
    from django.db import close_old_connections

    from scoring.models import Result, ResultState
    from tournaments.models import Match, ResultStatus

    close_old_connections()
    confirmed = Counter(
        Result.objects.filter(match__round__tournament_id=tournament_id, match__round__number__in=rounds,
                              state=ResultState.CONFIRMED).values_list("match_id", flat=True)
    )  # fmt: skip
    duplicated = sum(n - 1 for n in confirmed.values() if n > 1)
    lost = 0
    for m in Match.objects.filter(pk__in=list(intended)):
        ok = (m.score_a, m.score_b) == intended[m.pk] and m.result_status == ResultStatus.CONFIRMED
        lost += not ok or confirmed.get(m.pk, 0) != 1
    return lost, duplicated


# ------------------------------------------------------------------------------------------ HTTP


class Client:
    """One simulated person's requests; every call is timed and its failure kind counted."""

    def __init__(self, bench: Bench):
        self.bench = bench

    def call(self, kind: str, method: str, path: str, key: str | None = None, body=None):
        headers = {"Accept": "application/json", "Accept-Language": "en"}
        if key:
            headers["Authorization"] = f"Token {key}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        started = time.monotonic()
        status, payload, failure = 0, b"", None
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.bench.port, timeout=60)
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            status, payload = response.status, response.read()
            conn.close()
        except Exception as exc:  # counted by kind; the run goes on
            failure = type(exc).__name__
        elapsed = (time.monotonic() - started) * 1000
        if failure is None and status >= 400:
            failure = f"HTTP {status}"
            try:
                failure += " " + json.loads(payload).get("reason", json.loads(payload).get("code", ""))
            except Exception:
                pass
        self.bench.record(kind, elapsed, failure)
        if failure:
            return None
        return json.loads(payload) if payload.startswith((b"{", b"[")) else payload.decode(errors="replace")


class Bench:
    def __init__(self, args, data):
        self.args, self.data = args, data
        self.port = args.port
        self.lock = threading.Lock()
        self.phase = ""
        self.latency: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.failures: dict[str, Counter] = defaultdict(Counter)
        self.requests: Counter = Counter()
        self.stale: Counter = Counter()
        self.client_ms: dict[str, float] = {}
        self.deadline = time.monotonic() + args.timeout
        self.started = time.monotonic()
        self.trace: list[tuple[str, float, str, float]] = []
        self.load = MachineLoad(self.started)

    def record(self, kind: str, ms: float, failure: str | None) -> None:
        with self.lock:
            self.requests[self.phase] += 1
            if failure:
                self.failures[self.phase][f"{kind}: {failure}"] += 1
            else:
                self.latency[(self.phase, kind)].append(ms)
            self.trace.append((self.phase, time.monotonic() - ms / 1000 - self.started, kind, ms))

    # -- one table's work -----------------------------------------------------------------------

    def report(self, client: Client, m: dict) -> dict | None:
        for _attempt in range(3):
            seen = client.call("load match", "GET", f"/api/matches/{m['id']}/", m["a"])
            if not isinstance(seen, dict):
                continue
            out = client.call("report", "POST", f"/api/matches/{m['id']}/report/", m["a"],
                              {"final": list(m["want"]), "version": seen["version"]})  # fmt: skip
            if isinstance(out, dict):
                return out
        return None

    def confirm(self, client: Client, m: dict, reported: dict, stale_check: bool) -> None:
        out = client.call("confirm", "POST", f"/api/matches/{m['id']}/confirm/", m["b"],
                          {"result": reported["id"], "version": reported["match_version"]})  # fmt: skip
        if isinstance(out, dict) and stale_check:
            # The page of the pairings that holds the table: a round of more than PAGE_ROWS tables
            # is paged (issue 32), and reading page 1 for table 150 found no score at all (issue 50).
            number = (m["table"] - 1) // PAGE_ROWS + 1
            page = client.call("pairings", "GET", f"/t/{self.data['slug']}/pairings/?round={m['round']}&page={number}")
            score = _table_scores(page if isinstance(page, str) else "").get(m["table"])
            self.stale["checked"] += 1
            if score is None:
                self.stale["not on its page"] += 1  # the bench's own mistake, never the server's
            elif score != "{}:{}".format(*m["want"]):
                self.stale["stale"] += 1

    def pause(self, mean: float) -> None:
        if mean > 0:
            time.sleep(min(random.expovariate(1 / mean), max(0.0, self.deadline - time.monotonic())))

    # -- phases ---------------------------------------------------------------------------------

    def steady(self) -> tuple[list[int], dict]:
        args = self.args
        rounds = list(range(1, args.steady_rounds + 1))
        done = threading.Event()
        intended = {}

        def actor(i: int) -> None:
            time.sleep(args.ramp * i / max(1, args.actors))
            client = Client(self)
            for n in rounds:
                m = self.data["rounds"][n][i % len(self.data["rounds"][n])]
                intended[m["id"]] = m["want"]
                self.pause(args.think)
                reported = self.report(client, m)
                if reported is None:
                    continue
                self.pause(args.think)
                self.confirm(client, m, reported, stale_check=random.random() < 0.2)

        def visitor() -> None:
            # The pages people watch during play: the standings, and the pairings of a round
            # being played (its scores change with every confirmation), not a later round's.
            time.sleep(random.uniform(0, args.ramp))  # visitors arrive over the ramp too
            client = Client(self)
            while not done.is_set() and time.monotonic() < self.deadline:
                if random.random() < 0.5:
                    client.call("standings", "GET", f"/t/{self.data['slug']}/standings/")
                else:
                    path = f"/t/{self.data['slug']}/pairings/?round={random.choice(rounds)}"
                    client.call("pairings", "GET", path)
                self.pause(args.visitor_think)

        actors = [threading.Thread(target=actor, args=(i,)) for i in range(args.actors)]
        visitors = [threading.Thread(target=visitor) for _ in range(args.visitors)]
        for th in actors + visitors:
            th.start()
        for th in actors:
            th.join()
        done.set()
        for th in visitors:
            th.join()
        return rounds, intended

    def burst(self) -> tuple[list[int], dict]:
        n = self.args.steady_rounds + 1
        tables = self.data["rounds"][n][: self.args.actors]
        reports: dict[int, dict] = {}
        barrier = threading.Barrier(len(tables))

        def report(m):
            client = Client(self)
            seen = client.call("load match", "GET", f"/api/matches/{m['id']}/", m["a"])
            barrier.wait(timeout=120)
            if isinstance(seen, dict):
                out = client.call("report", "POST", f"/api/matches/{m['id']}/report/", m["a"],
                                  {"final": list(m["want"]), "version": seen["version"]})  # fmt: skip
                if isinstance(out, dict):
                    reports[m["id"]] = out

        def confirm(m):
            client = Client(self)
            barrier.wait(timeout=120)
            if m["id"] in reports:
                self.confirm(client, m, reports[m["id"]], stale_check=False)

        for step in (report, confirm):
            barrier.reset()
            before, started = machine_ticks(), time.monotonic()
            threads = [threading.Thread(target=step, args=(m,)) for m in tables]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            time.sleep(1.0)  # the step's after-commit work (rating tasks) counts to it
            used = cpu_by_group(before, machine_ticks())
            print(f"  burst {step.__name__} step: {time.monotonic() - started - 1:.1f} s, machine CPU per table "
                  f"{sum(used.values()) * 1000 / len(tables):.1f} ms — "
                  + ", ".join(f"{k} {v * 1000 / len(tables):.1f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1])))
        return [n], {m["id"]: m["want"] for m in tables}

    def capacity_step(self, rate: float, matches: list[dict]) -> tuple[float, float]:
        """Open loop at ``rate`` actions/s: a report, and its confirmation 1 s later."""
        started = time.monotonic()
        threads = []
        work = iter(matches)
        t = started
        while time.monotonic() - started < self.args.capacity_seconds:
            m = next(work, None)
            if m is None:
                break

            def one(m=m):
                client = Client(self)
                out = self.report(client, m)
                if out is not None:
                    time.sleep(1.0)
                    self.confirm(client, m, out, stale_check=False)

            th = threading.Thread(target=one)
            th.start()
            threads.append(th)
            t += 2 / rate  # two actions per match
            time.sleep(max(0.0, t - time.monotonic()))
        for th in threads:
            th.join()
        lat = [x for k in ACTIONS for x in self.latency[(self.phase, k)]]
        return percentile(lat, 95), len(lat) / max(1e-9, time.monotonic() - started)


def _table_scores(html: str) -> dict[int, str]:
    """Table number → score shown on a public pairings page."""
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        table = re.search(r'<td class="num">(\d+)</td>', row)
        score = re.search(r'<td class="score">([^<]*)', row)  # the score, before its state badge
        if table and score:
            out[int(table.group(1))] = score.group(1).strip()
    return out


# ------------------------------------------------------------------------------------------ main


def start_processes(args, env: dict) -> tuple[subprocess.Popen, subprocess.Popen]:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "zarik.wsgi:application", "--bind", f"127.0.0.1:{args.port}",
         "--workers", str(args.workers), "--worker-class", "gthread" if args.threads > 1 else "sync",
         "--threads", str(args.threads),
         "--backlog", "2048", "--timeout", "120", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    worker = subprocess.Popen(
        [*(["nice", "-n", str(args.worker_nice)] if args.worker_nice else []),
         sys.executable, "-m", "celery", "-A", "zarik", "worker", "--concurrency", "1", "--pool", args.celery_pool,
         "--loglevel", "warning", "--without-heartbeat", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
            conn.request("GET", "/")
            if conn.getresponse().status < 500:
                return server, worker
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer within 60 s")


def warm_up(args, data: dict) -> None:
    """A few untimed requests of every kind per web process, as a server that has been up a
    while has had: its first requests import views, load the URLs and compile templates."""
    first = data["rounds"][1][0]
    paths = [f"/t/{data['slug']}/standings/", f"/api/matches/{first['id']}/"]
    # the pairings of every round being played: a server up a while has shown them
    paths += [f"/t/{data['slug']}/pairings/?round={n}" for n in range(1, args.steady_rounds + 1)]

    def get(path: str) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
            conn.request("GET", path, headers={"Authorization": f"Token {first['a']}", "Accept-Language": "en"})
            conn.getresponse().read()
            conn.close()
        except OSError:
            pass

    threads = [threading.Thread(target=get, args=(p,)) for p in paths for _ in range(4 * args.workers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def tear_down(url: str, name: str, *procs: subprocess.Popen | None) -> None:
    """Stop the stack's processes, close this process's connections and drop the throwaway database."""
    for proc in procs:
        if proc is not None:
            stop(proc)
    try:
        from django.db import connections

        connections.close_all()
    except Exception:
        pass
    drop_database(url, name)


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def summary(bench: Bench, phase: str, seconds: float, cpu_ms: float, lost_dup=None, db_ms: float = 0.0) -> bool:
    ok = True
    requests = bench.requests[phase]
    print(f"\n== {phase}: {requests} requests in {seconds:.1f} s ({requests / max(seconds, 1e-9):.1f}/s), "
          f"CPU per request: web {cpu_ms / max(requests, 1):.1f} ms, database {db_ms / max(requests, 1):.1f} ms, "
          f"this client {bench.client_ms.get(phase, 0) / max(requests, 1):.1f} ms; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    actions_goal, pages_goal = GOALS.get(phase, (None, None))
    for (ph, kind), values in sorted(bench.latency.items()):
        if ph != phase or not values:
            continue
        p95 = percentile(values, 95)
        goal = actions_goal if kind in ACTIONS else pages_goal if kind in ("pairings", "standings") else None
        verdict = "" if goal is None else ("  ok" if p95 < goal else f"  OVER {goal:.0f} ms")
        ok &= not verdict.startswith("  OVER")
        print(f"  {kind:<11} n={len(values):5d}  p50 {percentile(values, 50):7.1f}  p95 {p95:7.1f}  "
              f"p99 {percentile(values, 99):7.1f}  max {max(values):7.1f} ms{verdict}")  # fmt: skip
    failures = bench.failures.get(phase)
    print("  failures: " + (", ".join(f"{k} ×{v}" for k, v in failures.most_common()) if failures else "none"))
    if lost_dup is not None:
        lost, dup = lost_dup
        print(f"  lost {lost}, duplicated {dup}")
        ok &= lost == 0 and dup == 0
    return ok


def main() -> int:
    args = parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must point at PostgreSQL")
    if args.players % 2 or args.actors > args.players // 2:
        sys.exit("--players must be even and --actors at most players/2 (one table each)")
    args.port = args.port or free_port()
    db_url, name = throwaway_database(url)
    env = dict(os.environ, DATABASE_URL=db_url, CONN_MAX_AGE="600", DEBUG="false",
               CACHE_URL=args.cache_url, CELERY_BROKER_URL=args.broker_url,
               DJANGO_SETTINGS_MODULE="zarik.settings", API_RATE_TOKEN="100000/min")  # fmt: skip
    os.environ.update(env)
    server = worker = None
    try:
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        cache.clear()
        data = build(args)
        from django.db import connections

        connections.close_all()
        server, worker = start_processes(args, env)
        print(f"server: gunicorn {args.workers} workers × {args.threads} threads "
              f"({'gthread' if args.threads > 1 else 'sync'}), 1 Celery worker, "
              f"PostgreSQL, Redis cache; {args.players} players, {len(data['rounds'][1])} matches a round, "
              f"{args.actors} actors, think {args.think} s, {args.visitors} visitors")  # fmt: skip
        warm_up(args, data)
        bench = Bench(args, data)
        all_ok = True
        skip = set(filter(None, args.skip.split(",")))
        phases = [("steady", bench.steady), ("burst", bench.burst)]
        for phase, run in phases:
            if phase in skip:
                continue
            bench.phase = phase
            publish_through(data["tournament_id"], args.steady_rounds + (phase == "burst"))
            tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
            cpu0, db0, t0, own0 = cpu_ticks(server.pid), db_ticks(name), time.monotonic(), own_cpu()
            machine0 = machine_ticks()
            rounds, intended = run()
            seconds = time.monotonic() - t0
            cpu_ms, db_ms = (cpu_ticks(server.pid) - cpu0) * tick_ms, (db_ticks(name) - db0) * tick_ms
            bench.client_ms[phase] = (own_cpu() - own0) * 1000
            used = cpu_by_group(machine0, machine_ticks())
            print(f"\n{phase}: machine CPU {sum(used.values()) / seconds:.2f} of {os.cpu_count()} cores — "
                  + ", ".join(f"{k} {v / seconds:.2f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1])))
            time.sleep(1)  # the after-commit work of the last confirmations
            all_ok &= summary(bench, phase, seconds, cpu_ms, check(rounds, intended, data["tournament_id"]), db_ms)
            rated, waited = wait_rated(list(intended))
            print(f"  rated {rated} of {len(intended)} confirmed matches {waited:.1f} s after the phase")
            all_ok &= rated == len(intended)
            if phase == "steady":
                windows(bench, phase)
                print(f"  staleness: {bench.stale['stale']} of {bench.stale['checked']} confirmed results "
                      "not yet on the public pairings page right after the confirmation"
                      f" ({bench.stale['not on its page']} tables not found on their page)")  # fmt: skip
                all_ok &= bench.stale["stale"] == 0 and bench.stale["not on its page"] == 0
        if "capacity" not in skip:
            print("\n== capacity (open loop; report + its confirmation 1 s later)")
            best = 0.0
            first = args.steady_rounds + 2
            pool = [m for n in sorted(data["rounds"]) if n >= first for m in data["rounds"][n]]
            for rate in (float(r) for r in args.capacity.split(",")):
                bench.phase = f"capacity {rate:g}/s"
                need = int(rate * args.capacity_seconds / 2) + 1
                matches, pool = pool[:need], pool[need:]
                if len(matches) < need:
                    print(f"  {rate:g}/s: not enough fresh matches left; stopping")
                    break
                publish_through(data["tournament_id"], max(m["round"] for m in matches))
                cpu0 = cpu_ticks(server.pid)
                p95, achieved = bench.capacity_step(rate, matches)
                cpu_ms = (cpu_ticks(server.pid) - cpu0) * 1000 / os.sysconf("SC_CLK_TCK")
                fails = sum(bench.failures[bench.phase].values())
                print(f"  target {rate:5.0f}/s: achieved {achieved:5.1f} actions/s, report+confirm p95 "
                      f"{p95:7.1f} ms, failures {fails}, web CPU {cpu_ms / max(bench.requests[bench.phase], 1):.1f} "
                      "ms per request")  # fmt: skip
                if p95 < 300 and fails == 0:
                    best = max(best, achieved)
                else:
                    break
            print(f"  capacity: {best:.1f} actions/s sustained at p95 < 300 ms")
        if args.trace:
            with open(args.trace, "w") as out:
                out.write("phase,start_s,kind,ms\n")
                out.writelines(f"{ph},{t:.3f},{kind},{ms:.1f}\n" for ph, t, kind, ms in bench.trace)
        return 0 if all_ok else 1
    finally:
        tear_down(url, name, server, worker)


if __name__ == "__main__":
    sys.exit(main())
