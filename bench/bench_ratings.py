"""Benchmark of the ratings: replay 100,000 matches among 5,000 players (issue 13: under 10 s).

Run::

    .venv/bin/python bench/bench_ratings.py [--matches 100000] [--players 5000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/bench_ratings.py

1. The pure core (:func:`clubs.ratings.history.replay`), with and without building
   the per-match changes; one core, no Django.
2. With ``DATABASE_URL`` on PostgreSQL: a throwaway database is created, migrated and
   filled (bulk) with one rated event holding the matches as confirmed results; then
   the full DB recompute (:func:`tournaments.ratings.service.recompute`, what
   ``manage.py recompute_ratings`` runs: read, replay, bulk-write 2 changes a match and
   every player's rating) is timed and checked against the core's replay. Dropped after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clubs.ratings.history import RatedMatch, replay  # noqa: E402

LENGTHS = (1, 3, 5, 7, 9, 11)


def history(players: int, count: int, seed: int = 13) -> list[RatedMatch]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b = rng.sample(range(players), 2)
        n = rng.choice(LENGTHS)
        lose = rng.randrange(n)
        out.append(RatedMatch(a, b, n, n, lose) if rng.random() < 0.5 else RatedMatch(a, b, n, lose, n))
    return out


def bench_core(matches: list[RatedMatch]) -> None:
    for record in (False, True):
        began = time.perf_counter()
        table, changes = replay(None, matches, record=record)
        took = time.perf_counter() - began
        what = "with the per-match changes" if record else "final ratings only"
        print(f"core replay, {what}: {len(matches)} matches, {len(table)} players: {took:.2f} s "
              f"({len(matches) / took:,.0f} matches/s)")  # fmt: skip


def bench_database(url: str, players: int, matches: list[RatedMatch]) -> None:
    import psycopg

    parts = urlsplit(url)
    name = f"zarik_bench_{uuid.uuid4().hex[:10]}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        _fill_and_time(players, matches)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _fill_and_time(players: int, matches: list[RatedMatch]) -> None:
    import datetime as dt

    from clubs.models import Player, PlayerRating
    from tournaments.models import Entry, Match, RatingChange, ResultStatus, Round, Tournament
    from tournaments.ratings.service import recompute

    began = time.perf_counter()
    people = Player.objects.bulk_create(Player(last_name=f"Игрок{i:05d}") for i in range(players))
    t = Tournament.objects.create(name="Bench", slug="bench", starts_on=dt.date(2026, 1, 1),
                                  variant="backgammon", match_length=5, rated=True)  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(people)
    )
    # Lengths vary per match (Match.match_length); one round per 2,500 matches is plenty here.
    per_round = 2500
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=k + 1, status="finished")
        for k in range((len(matches) + per_round - 1) // per_round)
    )
    rows = []
    for i, m in enumerate(matches):
        rows.append(Match(
            round=rounds[i // per_round], table=i % per_round + 1, entry_a=entries[m.a],
            entry_b=entries[m.b], match_length=m.length, score_a=m.score_a, score_b=m.score_b,
            winner="a" if m.score_a >= m.length else "b", result_status=ResultStatus.CONFIRMED,
        ))  # fmt: skip
    Match.objects.bulk_create(rows, batch_size=5000)
    print(f"database filled in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    count = recompute("backgammon")
    took = time.perf_counter() - began
    print(f"DB full recompute (PostgreSQL): {count} matches, "
          f"{RatingChange.objects.count()} changes written: {took:.2f} s")  # fmt: skip
    table, _ = replay(None, matches, record=False)
    stored = dict(PlayerRating.objects.values_list("player_id", "rating"))
    worst = max(abs(stored[people[k].pk] - s.rating) for k, s in table.items())
    print(f"stored ratings vs core replay: largest difference {worst:.2e}")
    began = time.perf_counter()
    recompute("backgammon", from_sequence=len(matches) // 2)
    print(f"DB recompute of the last half: {time.perf_counter() - began:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    args = parser.parse_args()
    matches = history(args.players, args.matches)
    bench_core(matches)
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        bench_database(url, args.players, matches)
    else:
        print("(set DATABASE_URL=postgres://… for the database recompute)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
