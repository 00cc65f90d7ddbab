"""Changing a draft by hand: swap two players, or make two players meet.

Only where the pairings are not decided by a schedule (the system's
``by_hand`` column). A proposal is re-checked by the core under the same
no-rematch / one-bye rules; a table that already has a result is changed only
when the organiser explicitly discards the result, with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.rules.errors import Problem
from tournaments.events import emit
from tournaments.models import Entry, Match, ResultStatus, Round, RoundStatus, Seat
from tournaments.pairing.checks import check_pairings
from tournaments.pairing.problems import WHY

from .checks import guard_results
from .generate import audit
from .reading import label, previous_opponents
from .refusals import PairingRefused, refuse
from .systems import SYSTEMS
from .writing import data


def editable(rnd: Round, *, by_hand: bool = False) -> None:
    """Refuse changes to a round that is not a draft (or, by hand, to a fixed schedule)."""
    if by_hand and not SYSTEMS[rnd.tournament.system].by_hand:
        raise refuse("fixed_schedule")
    if rnd.status != RoundStatus.DRAFT:
        raise refuse("not_draft", round=rnd.number, status=rnd.status)


def _seat_of(rnd: Round, entry_id: int) -> tuple[Match, str]:
    for m in rnd.matches.select_related("entry_a__player", "entry_b__player"):
        if m.entry_a_id == entry_id:
            return m, "a"
        if m.entry_b_id == entry_id:
            return m, "b"
    entry = Entry.objects.filter(pk=entry_id).select_related("player").first()
    name = label(entry) if entry else str(entry_id)
    raise refuse("not_in_round", entry=entry_id, entry_name=name, round=rnd.number)


def check_tables(rnd: Round, tables: Iterable[tuple[int, int | None]]) -> list[Problem]:
    """Rule problems of proposed tables (entry ids): rematches and second pairing byes."""
    met, byes = previous_opponents(rnd)
    names = {
        e.pk: label(e)
        for e in Entry.objects.filter(tournament=rnd.tournament_id).select_related("player")
    }
    return check_pairings(
        tables, met, byes, names, byes_limited=SYSTEMS[rnd.tournament.system].limits_byes
    )


def _rewrite(
    rnd: Round,
    changes: list[tuple[Match, int, int | None]],
    note: Problem,
    reason: str,
    user,
    action: str,
    discard_results: bool,
) -> Round:
    """Apply new (entry A, entry B) to matches, re-check, record; all or nothing."""
    proposed = [(a, b) for _, a, b in changes]
    problems = check_tables(rnd, proposed)
    if problems and not reason.strip():
        raise PairingRefused(problems)
    before = [[m.table, m.entry_a_id, m.entry_b_id] for m, _, _ in changes]
    with transaction.atomic():
        discarded = guard_results(
            rnd, [m for m, _, _ in changes], discard_results=discard_results, reason=reason
        )
        # Free the seats first, so the one-seat-per-round index never sees a transient clash.
        Seat.objects.filter(match__in=[m for m, _, _ in changes]).delete()
        for m, a, b in changes:
            m.refresh_from_db()
            m.entry_a_id, m.entry_b_id = a, b
            bye = b is None
            m.result_status = ResultStatus.CONFIRMED if bye else ResultStatus.PENDING
            m.winner = "a" if bye else ""
            m.score_a = m.score_b = None
            m.match_length = None if bye else (m.match_length or rnd.match_length)
            m.version += 1
            m.save()
        draws = dict(
            Entry.objects.filter(pk__in=[x for p in proposed for x in p if x]).values_list(
                "pk", "draw_number"
            )
        )
        rematch_pairs = {
            frozenset((p.details["a"], p.details["b"]))
            for p in problems
            if p.code == "pairing.rematch"
        }
        expl = dict(rnd.explanation or {})
        rows = {r.get("table"): r for r in expl.get("pairings", [])}
        for m, a, b in changes:
            row = rows.setdefault(m.table, {"table": m.table})
            row.update(
                {
                    "a": draws.get(a),
                    "b": draws.get(b) if b else None,
                    "bye": b is None,
                    "white": draws.get(a) if expl.get("colours") else None,
                    "rematch": b is not None and frozenset((a, b)) in rematch_pairs,
                    "notes": data([note]),
                }
            )
        expl["pairings"] = sorted(rows.values(), key=lambda r: r.get("table") or 0)
        expl.setdefault("manual", []).append(
            {
                "action": action,
                "by": getattr(user, "username", "") or "",
                "reason": reason.strip(),
                "at": timezone.now().isoformat(),
                "overridden": data(problems),
                "before": before,
                "discarded_results": len(discarded),
            }
        )
        rnd.store_explanation(expl)
        audit(
            user,
            rnd.tournament,
            action,
            rnd,
            before={"tables": before, "discarded_results": discarded},
            after={
                "tables": [[m.table, a, b] for m, a, b in changes],
                "overridden": [p.code for p in problems],
            },
            reason=reason.strip(),
        )
        if rnd.status == RoundStatus.PUBLISHED:
            changed = sorted({e for _m, a, b in changes for e in (a, b) if e is not None})
            emit("round.repaired", rnd.tournament_id, round=rnd.pk, number=rnd.number, entries=changed)
    return rnd


def _ordered(seats: dict[str, int | None]) -> tuple[int, int | None]:
    a, b = seats["a"], seats["b"]
    return (b, None) if a is None else (a, b)


def _two_seats(rnd: Round, entry_x: int, entry_y: int) -> tuple[Match, str, Match, str]:
    editable(rnd, by_hand=True)
    if entry_x == entry_y:
        raise refuse("same_player")
    mx, sx = _seat_of(rnd, entry_x)
    my, sy = _seat_of(rnd, entry_y)
    if mx.pk == my.pk:
        raise refuse("same_table", table=mx.table)
    return mx, sx, my, sy


def _manual(kind: str, t1: int, t2: int, reason: str) -> Problem:
    details: dict[str, Any] = {"table_a": t1, "table_b": t2}
    if reason.strip():
        details["comment"] = reason.strip()
    return WHY.problem(f"manual_{kind}", **details)


def swap_players(
    rnd: Round,
    entry_x: int,
    entry_y: int,
    *,
    user=None,
    reason: str = "",
    discard_results: bool = False,
) -> Round:
    """Players ``x`` and ``y`` (entry ids) exchange places: each takes the other's opponent."""
    mx, sx, my, sy = _two_seats(rnd, entry_x, entry_y)
    seats_x = {"a": mx.entry_a_id, "b": mx.entry_b_id}
    seats_y = {"a": my.entry_a_id, "b": my.entry_b_id}
    seats_x[sx], seats_y[sy] = entry_y, entry_x
    changes = [(mx, *_ordered(seats_x)), (my, *_ordered(seats_y))]
    note = _manual("swap", mx.table, my.table, reason)
    return _rewrite(rnd, changes, note, reason, user, "round.swap", discard_results)


def set_pairing(
    rnd: Round,
    entry_x: int,
    entry_y: int,
    *,
    user=None,
    reason: str = "",
    discard_results: bool = False,
) -> Round:
    """Make ``x`` and ``y`` play each other; their former opponents then meet (or take the bye)."""
    mx, sx, my, sy = _two_seats(rnd, entry_x, entry_y)
    px = mx.entry_b_id if sx == "a" else mx.entry_a_id
    py = my.entry_b_id if sy == "a" else my.entry_a_id
    rest = [p for p in (px, py) if p is not None]
    if not rest:
        raise refuse("two_byes")
    # Bye rows are always the higher tables; keep the real pair at the lower table.
    low, high = sorted((mx, my), key=lambda m: (m.entry_b_id is None, m.table))
    other = (rest[0], rest[1] if len(rest) > 1 else None)
    changes = [(low, entry_x, entry_y), (high, *other)]
    note = _manual("fix", mx.table, my.table, reason)
    return _rewrite(rnd, changes, note, reason, user, "round.set_pairing", discard_results)
