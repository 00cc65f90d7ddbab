"""Load benchmark of the result workflow: 200 referees and players, a 400-player round.

Run (PostgreSQL only; by default a throwaway database is created next to the one named,
migrated, used and dropped):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/load_results.py
    # options: --players 400 --actors 200 --db-connections 20 --think 0 --timeout 300 --use-given

200 actor threads work on one published round of 200 matches (to 5 points): 100 "players"
each report a match as player A and then confirm another as player B; 100 "referees"
each wait for a report on their matches and race the players to confirm it. Every call
goes through :mod:`scoring.services` (row lock + version check + the rules core + audit),
served by a pool of ``--db-connections`` server threads, each with its own persistent
database connection (as web workers would be). Latency is measured from the "click"
(before waiting for a free worker) to the answer; the service time alone is printed too.

At the end every match is checked: exactly one confirmed result, equal to what was
reported, reflected in the match row, and the round closed. Prints ``results lost`` and
``duplicates`` (both must be 0) and the latency percentiles. Bounded: every wait has a
deadline (``--timeout``) and the script stops, reports and cleans up when it passes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor, TimeoutError
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=400, help="players in the round (even)")
    p.add_argument("--actors", type=int, default=200, help="simulated referees and players")
    p.add_argument(
        "--db-connections",
        type=int,
        default=20,
        help="server workers, each with its own persistent DB connection",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause before each click, seconds (0: everyone clicks at once, the worst case)",
    )
    p.add_argument("--timeout", type=float, default=300.0, help="hard stop, seconds")
    p.add_argument(
        "--use-given",
        action="store_true",
        help="use the DATABASE_URL database itself instead of a throwaway one",
    )
    return p.parse_args()


def throwaway_database(url: str) -> tuple[str, str]:
    """Create an empty database on the server of ``url``; returns (its URL, its name)."""
    import psycopg

    parts = urlsplit(url)
    name = f"zarik_bench_{uuid.uuid4().hex[:10]}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), name


def drop_database(url: str, name: str) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.deadline = time.monotonic() + args.timeout
        self.pool = ThreadPoolExecutor(args.db_connections, thread_name_prefix="server")
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.service: list[float] = []
        self.counts: dict[str, int] = defaultdict(int)
        self.confirmed_by_call: dict[int, list[int]] = defaultdict(list)
        self.reported: dict[int, threading.Event] = {}
        self.intended: dict[int, tuple[int, int]] = {}
        self.errors: list[str] = []

    # -- setup -------------------------------------------------------------------------

    def build(self):
        import datetime as dt

        from django.contrib.auth import get_user_model

        from clubs.models import Player
        from tournaments.models import Entry, Match, Official, Round, RoundStatus, Tournament

        users = get_user_model()
        slug = f"bench-{uuid.uuid4().hex[:8]}"
        t = Tournament.objects.create(
            name="Load benchmark",
            slug=slug,
            public=True,
            starts_on=dt.date(2026, 1, 1),
            match_length=5,
        )
        rnd = Round.objects.create(tournament=t, number=1, status=RoundStatus.DRAFT, match_length=5)
        n_ref = self.args.actors // 2
        referees = users.objects.bulk_create(users(username=f"{slug}-ref{i}") for i in range(n_ref))
        Official.objects.bulk_create(
            Official(tournament=t, user=u, role="referee") for u in referees
        )
        player_users = users.objects.bulk_create(
            users(username=f"{slug}-p{i}") for i in range(self.args.players)
        )
        players = Player.objects.bulk_create(
            Player(last_name=f"Bench{i}", first_name=slug, user=u)
            for i, u in enumerate(player_users)
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(players)
        )
        matches = []
        for i in range(0, len(entries), 2):
            matches.append(
                Match.objects.create(
                    round=rnd,
                    table=i // 2 + 1,
                    entry_a=entries[i],
                    entry_b=entries[i + 1],
                    match_length=5,
                )
            )
        Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.PUBLISHED)
        for k, m in enumerate(matches):
            self.reported[m.pk] = threading.Event()
            self.intended[m.pk] = (5, k % 5) if k % 2 == 0 else (k % 5, 5)
        return t, rnd, matches, referees

    # -- one request -----------------------------------------------------------------------

    def call(self, kind: str, fn):
        """Send a request to the server pool and wait for the answer; time both ways."""
        if self.args.think > 0:
            pause = random.uniform(0, 2 * self.args.think)
            time.sleep(max(0.0, min(pause, self.deadline - time.monotonic())))
        clicked = time.monotonic()
        remaining = self.deadline - clicked
        if remaining <= 0:
            with self.lock:
                self.counts["timed out"] += 1
            return None
        future = self.pool.submit(self.serve, kind, fn)
        try:
            outcome, service = future.result(timeout=remaining)
        except TimeoutError:
            with self.lock:
                self.counts["timed out"] += 1
            return None
        done = time.monotonic()
        with self.lock:
            self.latency[kind].append(done - clicked)
            self.service.append(service)
            self.counts[f"{kind}: {type(outcome).__name__}"] += 1
        return outcome

    def serve(self, kind: str, fn):
        """One request on a server worker (its own persistent database connection)."""
        from django.db import close_old_connections

        from scoring.services import ResultError

        started = time.monotonic()
        close_old_connections()
        try:
            outcome = fn()
        except ResultError as exc:
            outcome = exc
        except Exception as exc:  # reported in the summary, never silently dropped
            outcome = exc
            with self.lock:
                self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
        return outcome, time.monotonic() - started

    def version(self, match_id: int) -> int | None:
        from tournaments.models import Match

        return self.call(
            "load page", lambda: Match.objects.values_list("version", flat=True).get(pk=match_id)
        )

    # -- actors ----------------------------------------------------------------------------

    def player_actor(self, report_matches, confirm_matches) -> None:
        from scoring import services
        from scoring.models import Result

        for m in report_matches:
            for _attempt in range(5):
                v = self.version(m.pk)
                out = self.call(
                    "report",
                    lambda m=m, v=v: services.submit_result(
                        m.pk, m.entry_a.player.user, version=v, final=self.intended[m.pk]
                    ),
                )
                if isinstance(out, Result) or not isinstance(out, services.StaleVersion):
                    break
            self.reported[m.pk].set()  # confirmers go on either way (a failure is counted)
        for m in confirm_matches:
            self.confirm(m, m.entry_b.player.user)

    def referee_actor(self, matches, referee) -> None:
        for m in matches:
            if self.reported[m.pk].wait(timeout=max(0.0, self.deadline - time.monotonic())):
                self.confirm(m, referee)

    def confirm(self, m, user) -> None:
        from scoring import services
        from scoring.models import Result, ResultState

        if not self.reported[m.pk].wait(timeout=max(0.0, self.deadline - time.monotonic())):
            return
        for _attempt in range(5):
            v = self.version(m.pk)

            def do(m=m, v=v):
                report = Result.objects.filter(match_id=m.pk, state=ResultState.REPORTED).first()
                if report is None:
                    raise services.refuse("already_confirmed", "duplicate")
                return services.confirm_result(m.pk, report.pk, user, version=v)

            out = self.call("confirm", do)
            if isinstance(out, Result):
                with self.lock:
                    self.confirmed_by_call[m.pk].append(out.pk)
                return
            if not isinstance(out, services.StaleVersion):
                return

    # -- run and check ---------------------------------------------------------------------

    def run(self) -> int:
        from django.db import connection

        from scoring.models import Result, ResultState
        from tournaments.models import Match, ResultStatus, Round, RoundStatus

        t, rnd, matches, referees = self.build()
        connection.close()
        n = len(matches)
        half = self.args.actors // 2
        threads = []
        for i in range(half):  # players: report k, confirm k shifted by one actor's share
            mine = matches[i::half]
            other = matches[(i + 1) % half :: half]
            threads.append(threading.Thread(target=self.player_actor, args=(mine, other)))
        for i in range(half):  # referees race the players to confirm
            threads.append(
                threading.Thread(target=self.referee_actor, args=(matches[i::half], referees[i]))
            )
        began = time.monotonic()
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=max(0.1, self.deadline - time.monotonic() + 5))
        wall = time.monotonic() - began
        self.pool.shutdown(wait=False, cancel_futures=True)
        stuck = sum(th.is_alive() for th in threads)

        final = {m.pk: m for m in Match.objects.filter(round=rnd)}
        confirmed = defaultdict(list)
        for r in Result.objects.filter(match__round=rnd, state=ResultState.CONFIRMED):
            confirmed[r.match_id].append(r)
        duplicates = sum(len(v) - 1 for v in confirmed.values() if len(v) > 1)
        duplicates += sum(len(v) - 1 for v in self.confirmed_by_call.values() if len(v) > 1)
        lost = 0
        for pk, want in self.intended.items():
            rows = confirmed.get(pk, [])
            m = final[pk]
            ok = (
                len(rows) == 1
                and (rows[0].score_a, rows[0].score_b) == want
                and (m.score_a, m.score_b) == want
                and m.result_status == ResultStatus.CONFIRMED
                and self.confirmed_by_call.get(pk) == [rows[0].pk]
            )
            lost += not ok
        closed = Round.objects.get(pk=rnd.pk).status == RoundStatus.FINISHED

        calls = sum(len(v) for v in self.latency.values())
        print(
            f"players {self.args.players}, matches {n}, actors {len(threads)} "
            f"({half} players, {half} referees), {self.args.db_connections} served at once"
        )
        print(
            f"wall time {wall:.1f} s, {calls} requests, {calls / wall:.0f} requests/s"
            + (f", {stuck} actors still running at the deadline" if stuck else "")
        )
        print(f"results lost: {lost}")
        print(f"duplicates: {duplicates}")
        print(f"round closed: {'yes' if closed else 'NO'}")
        for kind in ("report", "confirm", "load page"):
            v = [x * 1000 for x in self.latency.get(kind, [])]
            if v:
                print(
                    f"latency {kind:<10} n={len(v):4d}  p50 {percentile(v, 50):7.1f} ms  "
                    f"p95 {percentile(v, 95):7.1f} ms  p99 {percentile(v, 99):7.1f} ms  "
                    f"max {max(v):7.1f} ms"
                )
        s = [x * 1000 for x in self.service]
        print(
            f"service time (no queue)  p50 {percentile(s, 50):.1f} ms  "
            f"p95 {percentile(s, 95):.1f} ms  p99 {percentile(s, 99):.1f} ms  "
            f"mean {statistics.fmean(s):.1f} ms"
        )
        print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())))
        for line in self.errors[:10]:
            print("error:", line)
        return 0 if lost == 0 and duplicates == 0 and closed and not self.errors else 1


def main() -> int:
    args = parse_args()
    if args.players % 2 or args.actors % 2 or args.actors < 2:
        sys.exit("--players and --actors must be even (pairs; half players, half referees)")
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must point at PostgreSQL (the benchmark measures row locks)")
    name = None
    if not args.use_given:
        url, name = throwaway_database(url)
        os.environ["DATABASE_URL"] = url
    os.environ["CONN_MAX_AGE"] = "600"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        if name:
            call_command("migrate", verbosity=0)
        return Bench(args).run()
    finally:
        if name:
            from django.db import connections

            connections.close_all()
            drop_database(url, name)


if __name__ == "__main__":
    sys.exit(main())
