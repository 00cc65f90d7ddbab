"""Thousands of phones watching an event while its players enter results (issue 50, part 3).

One command prepares everything and cleans up after itself:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/watchers.py
    # options: --players 400 --watchers 500,1000,2000 --seconds 60 --arrive 60 --poll 2
    #          --workers 4 --think 5 --hall 0.1 --player-page 0.2

It makes a throwaway database, a Swiss of ``--players`` players with one round a step (drafts
until their step), starts the real server as ``bench/load_results.py`` does (gunicorn sync
workers, a Celery worker, PostgreSQL, the Redis cache) and, for each number of watchers:

- publishes the step's round through the director's service (the moment everyone looks);
- ``N`` watchers arrive over ``--arrive`` seconds (2,000 within a minute by default); each opens
  its page once (the round's pairings; ``--player-page`` of them a player's page, ``--hall`` of
  them the hall's page, then its screen asked by htmx), keeps the cookies and the ETag as a browser does, then polls the live
  stamp ``/t/<slug>/live.json`` every ``--poll`` seconds with ``If-None-Match``; when the stamp
  moved on it asks for its page again, also with ``If-None-Match`` (what ``static/js/zarik.js``
  and ``static/js/hall.js`` do, with ``cache: "no-cache"``);
- meanwhile every player of the round enters the result (``--players``/2 tables: player A
  reports through the API, player B confirms after a think time of mean ``--think`` s), the
  tables starting over the step.

Printed per step and kind of request: count, p50/p95/p99/max latency, 304 share, failures,
requests per second achieved against the rate asked, and the CPU per request of the web
processes, the database and this client (from /proc: the machine is shared, wall time is noisy).
The client runs on the same machine (asyncio, one process): its CPU is printed so the server's
share can be read. Live updates are short polls with ETags, not server-sent events: gunicorn's
sync workers would each be held by one open stream (4 workers, 4 watchers).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_results import (  # noqa: E402  (the same stack and its CPU readings)
    cpu_by_group,
    cpu_ticks,
    db_ticks,
    free_port,
    machine_ticks,
    percentile,
    publish_through,
    start_processes,
    tear_down,
    throwaway_database,
)

from zarik.serving import web_concurrency  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=400, help="players (even): players/2 tables enter results")
    p.add_argument("--watchers", default="500,1000,2000", help="watchers of each step, comma-separated")
    p.add_argument("--seconds", type=float, default=60.0, help="length of each step, s")
    p.add_argument("--arrive", type=float, default=60.0, help="the watchers arrive over this many seconds")
    p.add_argument("--poll", type=float, default=2.0, help="seconds between a watcher's polls of the live stamp")
    p.add_argument("--think", type=float, default=5.0, help="mean seconds between a report and its confirmation")
    p.add_argument("--quiet", action="store_true",
                   help="also run each step once with nobody entering results first (the polls alone)")
    p.add_argument("--hall", type=float, default=0.1, help="share of watchers showing the hall's screen")
    p.add_argument("--player-page", type=float, default=0.2, help="share of watchers on a player's page")
    p.add_argument("--workers", type=int, default=web_concurrency(), help="gunicorn sync workers")
    p.add_argument("--cache-url", default=os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/9"))
    p.add_argument("--broker-url", default=os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/10"))
    p.add_argument("--port", type=int, default=0)
    return p.parse_args()


# ------------------------------------------------------------------------------------------ data


def build(players: int, steps: int) -> dict:
    """A public Swiss, one draft round a step (published when its step starts), a token per player."""
    import datetime as dt
    import uuid

    from django.contrib.auth import get_user_model

    from clubs.models import Player
    from tournaments.api.http import tokens
    from tournaments.models import Entry, Match, Round, RoundStatus, Tournament

    users = get_user_model()
    slug = f"watch-{uuid.uuid4().hex[:8]}"
    t = Tournament.objects.create(name="Watchers", slug=slug, public=True, starts_on=dt.date(2026, 1, 1),
                                  match_length=5)  # fmt: skip
    accounts = users.objects.bulk_create(users(username=f"{slug}-p{i}") for i in range(players))
    people = Player.objects.bulk_create(
        Player(last_name=f"Watch{i:04d}", first_name="Bench", user=u) for i, u in enumerate(accounts)
    )
    entries = Entry.objects.bulk_create(Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(people))
    keys = {e.pk: tokens.issue(a, "bench", "write")[1] for e, a in zip(entries, accounts, strict=True)}
    half = players // 2
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=n, match_length=5, status=RoundStatus.DRAFT) for n in range(1, steps + 1)
    )
    matches = [
        Match(round=r, table=k + 1, entry_a=entries[k], entry_b=entries[half + (k + r.number) % half], match_length=5)
        for r in rounds
        for k in range(half)
    ]
    Match.objects.bulk_create(matches, batch_size=2000)
    tables: dict[int, list[dict]] = defaultdict(list)
    for m in Match.objects.filter(round__tournament=t).select_related("round").order_by("round__number", "table"):
        want = (5, m.table % 5) if m.table % 2 else (m.table % 5, 5)
        tables[m.round.number].append(
            {"id": m.pk, "want": want, "a": keys[m.entry_a_id], "b": keys[m.entry_b_id]}
        )
    return {"slug": slug, "tournament_id": t.pk, "tables": tables, "entries": [e.pk for e in entries]}


# ------------------------------------------------------------------------------------------ HTTP


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: dict[str, Counter] = defaultdict(Counter)
        self.failures: Counter = Counter()
        self.count = 0


async def http(port: int, stats: Stats, kind: str, method: str, path: str, headers: dict | None = None,
               body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """One request on its own connection (gunicorn's sync workers close each), timed."""
    head = {"Host": "127.0.0.1", "Connection": "close", "Accept-Language": "ru", **(headers or {})}
    if body is not None:
        head["Content-Length"] = str(len(body))
    raw = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw.encode() + (body or b""))
        data = await asyncio.wait_for(reader.read(-1), 120)
        writer.close()
    except (TimeoutError, OSError) as exc:
        stats.failures[f"{kind}: {type(exc).__name__}"] += 1
        return 0, {}, b""
    ms = (time.monotonic() - started) * 1000
    head_raw, _sep, payload = data.partition(b"\r\n\r\n")
    lines = head_raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    got: dict[str, str] = {}
    for line in lines[1:]:
        name, _c, value = line.partition(":")
        got.setdefault(name.strip().lower(), "")
        got[name.strip().lower()] += ("; " if got[name.strip().lower()] else "") + value.strip()
    stats.count += 1
    stats.status[kind][status] += 1
    if status >= 400 or status == 0:
        stats.failures[f"{kind}: HTTP {status}"] += 1
    else:
        stats.latency[kind].append(ms)
    return status, got, payload


class Browser:
    """A phone's cookies and ETags, as a browser keeps them."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.bodies: dict[str, bytes] = {}

    async def get(self, kind: str, path: str, extra: dict | None = None) -> bytes:
        headers = dict(extra or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        status, got, body = await http(self.port, self.stats, kind, "GET", path, headers)
        for part in got.get("set-cookie", "").split("; "):
            name, eq, value = part.partition("=")
            if eq and name in ("csrftoken",):
                self.cookies[name] = value
        if status == 200:
            if "etag" in got:
                self.etags[path] = got["etag"]
            self.bodies[path] = body
        return self.bodies.get(path, b"")


# ------------------------------------------------------------------------------------------ step


async def watcher(args, data: dict, stats: Stats, page: str, until: float) -> None:
    await asyncio.sleep(random.uniform(0, args.arrive))
    phone = Browser(args.port, stats)
    kind = "hall screen" if "/hall/" in page else "player page" if "/player/" in page else "pairings page"
    # The hall page is opened once; static/js/hall.js then asks htmx for its screen again when
    # the stamp moves (the browser revalidating it with If-None-Match, as for any page).
    extra = {"HX-Request": "true"} if kind == "hall screen" else {}
    if extra:
        await phone.get("hall page", f"/t/{data['slug']}/hall/?every=10")
    else:
        await phone.get(kind, page)
    live = f"/t/{data['slug']}/live.json"
    stamp = None
    await asyncio.sleep(random.uniform(0, args.poll))
    while time.monotonic() < until:
        body = await phone.get("live poll", live)
        try:
            now = json.loads(body)["stamp"]
        except (ValueError, KeyError):
            now = stamp
        if stamp is not None and now != stamp:
            await phone.get(kind, page, extra)
        stamp = now
        await asyncio.sleep(args.poll)


async def table(args, data: dict, stats: Stats, m: dict, until: float) -> None:
    await asyncio.sleep(random.uniform(0, max(0.0, until - time.monotonic() - 2 * args.think)))
    a = {"Authorization": f"Token {m['a']}", "Accept": "application/json"}
    _s, _h, seen = await http(args.port, stats, "API load match", "GET", f"/api/matches/{m['id']}/", a)
    try:
        version = json.loads(seen)["version"]
    except (ValueError, KeyError):
        return
    body = json.dumps({"final": list(m["want"]), "version": version}).encode()
    post = {**a, "Content-Type": "application/json"}
    _s, _h, out = await http(args.port, stats, "API report", "POST", f"/api/matches/{m['id']}/report/", post, body)
    try:
        reported = json.loads(out)
        body = json.dumps({"result": reported["id"], "version": reported["match_version"]}).encode()
    except (ValueError, KeyError):
        return
    await asyncio.sleep(random.expovariate(1 / args.think))
    b = {"Authorization": f"Token {m['b']}", "Accept": "application/json", "Content-Type": "application/json"}
    await http(args.port, stats, "API confirm", "POST", f"/api/matches/{m['id']}/confirm/", b, body)


async def step(args, data: dict, number: int, watchers: int, entering: bool = True) -> Stats:
    stats = Stats()
    until = time.monotonic() + args.seconds
    slug = data["slug"]
    pages = []
    for _i in range(watchers):
        draw = random.random()
        if draw < args.hall:
            pages.append(f"/t/{slug}/hall/frame/?page=1&every=10")
        elif draw < args.hall + args.player_page:
            pages.append(f"/t/{slug}/player/{random.choice(data['entries'])}/")
        else:
            pages.append(f"/t/{slug}/pairings/?round={number}")
    jobs = [watcher(args, data, stats, page, until) for page in pages]
    if entering:
        jobs += [table(args, data, stats, m, until) for m in data["tables"][number]]
    await asyncio.gather(*jobs)
    return stats


def report(args, title: str, watchers: int, stats: Stats, seconds: float, used: dict, web_ms: float,
           db_ms: float, client_s: float) -> None:  # fmt: skip
    asked = watchers / args.poll
    n = max(stats.count, 1)
    print(f"\n== {title}: {watchers} watchers (polls asked ≈ {asked:.0f}/s once all arrived), "
          f"{len(stats.latency['API report'])} reports: {stats.count} requests in {seconds:.0f} s "
          f"({stats.count / seconds:.0f}/s)")  # fmt: skip
    print(f"  CPU per request: web {web_ms / n:.2f} ms, database {db_ms / n:.2f} ms, this client "
          f"{client_s * 1000 / n:.2f} ms; machine {sum(used.values()) / seconds:.2f} of {os.cpu_count()} cores — "
          + ", ".join(f"{k} {v / seconds:.2f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1])))  # fmt: skip
    for kind in sorted(stats.status):
        values = stats.latency[kind]
        codes = stats.status[kind]
        total = sum(codes.values())
        if not values:
            print(f"  {kind:<15} n={total:6d}  all failed")
            continue
        print(f"  {kind:<15} n={total:6d}  p50 {percentile(values, 50):7.1f}  p95 {percentile(values, 95):7.1f}  "
              f"p99 {percentile(values, 99):7.1f}  max {max(values):7.1f} ms  304 {codes[304] / total:4.0%}")  # fmt: skip
    print("  failures: " + (", ".join(f"{k} ×{v}" for k, v in stats.failures.most_common()) or "none"))


def main() -> int:
    args = parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must point at PostgreSQL")
    counts = [int(w) for w in args.watchers.split(",")]
    args.port = args.port or free_port()
    args.threads, args.celery_pool, args.worker_nice = 1, "prefork", 10
    db_url, name = throwaway_database(url)
    env = dict(os.environ, DATABASE_URL=db_url, CONN_MAX_AGE="600", DEBUG="false", CACHE_URL=args.cache_url,
               CELERY_BROKER_URL=args.broker_url, DJANGO_SETTINGS_MODULE="zarik.settings",
               API_RATE_TOKEN="100000/min")  # fmt: skip
    os.environ.update(env)
    server = worker = None
    try:
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        cache.clear()
        data = build(args.players, len(counts))
        connections.close_all()
        server, worker = start_processes(args, env)
        print(f"server: gunicorn {args.workers} sync workers, 1 Celery worker, PostgreSQL, Redis; "
              f"{args.players} players ({args.players // 2} tables entering results a step), poll every "
              f"{args.poll:g} s, watchers arrive over {args.arrive:g} s, steps of {args.seconds:g} s")  # fmt: skip
        tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
        for number, watchers in enumerate(counts, start=1):
            publish_through(data["tournament_id"], number)
            connections.close_all()
            for entering in (False, True) if args.quiet else (True,):
                web0, db0, machine0, t0 = cpu_ticks(server.pid), db_ticks(name), machine_ticks(), time.monotonic()
                own0 = sum(os.times()[:2])
                stats = asyncio.run(step(SimpleNamespace(**vars(args)), data, number, watchers, entering))
                seconds = time.monotonic() - t0
                client_s = sum(os.times()[:2]) - own0
                web_ms, db_ms = (cpu_ticks(server.pid) - web0) * tick_ms, (db_ticks(name) - db0) * tick_ms
                title = f"round {number} published, " + ("results entered" if entering else "no results yet")
                report(args, title, watchers, stats, seconds, cpu_by_group(machine0, machine_ticks()),
                       web_ms, db_ms, client_s)  # fmt: skip
                connections.close_all()
        return 0
    finally:
        tear_down(url, name, server, worker)


if __name__ == "__main__":
    sys.exit(main())
