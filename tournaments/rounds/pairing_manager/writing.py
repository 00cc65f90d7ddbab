"""Writing draft rounds: matches, seats, table numbers, match lengths and the explanation.

The explanation is stored as data — codes and details of the generators'
decisions (``Problem.to_data()``), player draw numbers, no words — and is
rendered in the reader's language when read (:mod:`.explanation`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils import timezone

from scoring.rules.errors import Problem
from tournaments.models import (
    Entry,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    Seat,
    Section,
    Tournament,
)

Progress = Callable[[int, int], None]

#: Matches written per bulk insert (big fields stay fast and report progress).
CHUNK = 500


def data(problems: Iterable[Problem]) -> list[dict[str, Any]]:
    """Problems as stored data (codes and details; the words are chosen when read)."""
    return [p.to_data() for p in problems]


@dataclass
class Table:
    """One table of a planned round: entry A (White when colours count), entry B or a bye."""

    a: Entry
    b: Entry | None
    length: int | None
    info: dict[str, Any]  # the explanation row for this table


@dataclass
class PlannedRound:
    """A round a generator planned, before it is written: its tables and explanation."""

    number: int
    tables: list[Table]
    explanation: dict[str, Any] = field(default_factory=dict)
    length: int | None = None


def explanation_base(system: str, user, reason: str, overridden: list[Problem]) -> dict:
    return {
        "system": system,
        "generated_at": timezone.now().isoformat(),
        "generated_by": getattr(user, "username", "") or "",
        "override_reason": reason.strip(),
        "overridden": data(overridden),
        "notes": [],
        "byes": [],
        "groups": [],
        "problems": [],
        "manual": [],
    }


def write_seats(rnd: Round, first: int, last: int) -> None:
    """The seats of the round's matches with ids ``first``..``last``: A, and B unless a bye
    (what :meth:`Match.sync_seats` keeps for one match, for a bulk-written chunk).

    Made by the database from the matches just written, in the order Seat objects were
    (by match, A before B): building a 10,000-player round's 10,000 seats in Python cost
    more than its 5,000 matches (issue 32).
    """
    q = connection.ops.quote_name
    seat_t, match_t = q(Seat._meta.db_table), q(Match._meta.db_table)
    col = {f: q(Seat._meta.get_field(f).column) for f in ("round", "match", "entry", "side")}
    m = {f: q(Match._meta.get_field(f).column) for f in ("id", "round", "entry_a", "entry_b")}
    mine = f"{m['round']} = %s AND {m['id']} BETWEEN %s AND %s"
    sql = (
        f"INSERT INTO {seat_t} ({col['round']}, {col['match']}, {col['entry']}, {col['side']}) "
        f"SELECT {m['round']}, {m['id']}, {m['entry_a']}, 'a' FROM {match_t} WHERE {mine} "
        f"UNION ALL SELECT {m['round']}, {m['id']}, {m['entry_b']}, 'b' FROM {match_t} "
        f"WHERE {mine} AND {m['entry_b']} IS NOT NULL ORDER BY 2, 4"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [rnd.pk, first, last] * 2)


def write_round(
    tournament: Tournament,
    section: Section | None,
    planned: PlannedRound,
    progress: Progress | None = None,
) -> Round:
    """One draft round with its matches and seats, written in bulk."""
    rnd = Round.objects.create(
        tournament=tournament,
        section=section,
        number=planned.number,
        status=RoundStatus.DRAFT,
        match_length=planned.length,
    )
    matches = []
    for i, t in enumerate(planned.tables, start=1):
        bye = t.b is None
        matches.append(
            Match(
                round=rnd,
                table=i,
                entry_a=t.a,
                entry_b=t.b,
                match_length=t.length,
                result_status=ResultStatus.CONFIRMED if bye else ResultStatus.PENDING,
                winner="a" if bye else "",
            )
        )
        t.info["table"] = i
    total = len(matches)
    done = 0
    for start in range(0, total, CHUNK):
        part = matches[start : start + CHUNK]
        Match.objects.bulk_create(part)
        write_seats(rnd, min(m.pk for m in part), max(m.pk for m in part))
        done += len(part)
        if progress is not None:
            progress(done, total)
    explanation = dict(planned.explanation)
    explanation["pairings"] = [t.info for t in planned.tables]
    rnd.store_explanation(explanation)
    return rnd
