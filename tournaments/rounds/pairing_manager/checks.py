"""What stands in the way: of pairing the next round, and of changing a draft that has results."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from scoring.rules.errors import Problem
from tournaments.audit import snapshot
from tournaments.models import Match, ResultStatus, Round, RoundStatus, Section, Tournament
from tournaments.rounds.flow import open_matches

from .reading import has_players, rounds_of
from .refusals import PairingRefused, problem
from .systems import SYSTEMS


def unconfirmed_matches(rnd: Round):
    """Matches still waiting for a confirmed result (the results workflow's definition)."""
    return open_matches(rnd)


def blockers(tournament: Tournament, section: Section | None = None) -> list[Problem]:
    """Why the next round cannot be paired now; each one an organiser may override with a reason.

    A draft round is not overridable (publish or delete it first) and is
    reported by :func:`hard_blockers`.
    """
    out: list[Problem] = []
    last = rounds_of(tournament, section).last()
    if last is None:
        return out
    open_count = unconfirmed_matches(last).count()
    if open_count:
        out.append(problem("round_open", round=last.number, open=open_count))
    planned = tournament.rounds_planned
    if SYSTEMS[tournament.system].planned_rounds and planned and last.number >= planned:
        out.append(problem("rounds_planned", planned=planned, next=last.number + 1))
    return out


def hard_blockers(tournament: Tournament, section: Section | None = None) -> list[Problem]:
    """What no reason overrides: a draft still waiting, no section chosen, nobody to pair.

    A section (or a tournament) without a player left to pair is refused
    (``pairing.section_empty``, ``pairing.no_players``) rather than given an empty draft
    round: a category nobody entered is simply not played (book Part 9, «Категории
    игроков»; :func:`.reading.is_empty`).
    """
    out = []
    draft = rounds_of(tournament, section).filter(status=RoundStatus.DRAFT).first()
    if draft is not None:
        out.append(problem("draft_exists", round=draft.number))
    if tournament.sections.exists() and section is None:
        out.append(problem("section_required"))
    elif not has_players(tournament, section):
        out.append(
            problem("section_empty", section=section.name) if section is not None else problem("no_players")
        )
    return out


# ---------------------------------------------------------------------------------------------
# results on a draft
# ---------------------------------------------------------------------------------------------


def _with_results(matches) -> Any:
    """Matches with a result: a reported/confirmed Result row, or a score/status on the match."""
    played = Q(entry_b__isnull=False) & (
        Q(score_a__isnull=False)
        | Q(score_b__isnull=False)
        | ~Q(winner="")
        | ~Q(result_status=ResultStatus.PENDING)
    )
    return matches.filter(Q(results__isnull=False) | played).distinct()


def matches_with_results(rnd: Round, matches=None):
    """The round's matches (or the given ones) that already carry a result."""
    qs = rnd.matches.all() if matches is None else Match.objects.filter(pk__in=[m.pk for m in matches])
    return _with_results(qs).order_by("table")


def guard_results(rnd: Round, matches=None, *, discard_results: bool, reason: str) -> list[dict]:
    """Refuse to touch matches with results unless they are explicitly discarded with a reason.

    Returns the discarded results (snapshots for the audit entry's before-state)
    after clearing them; call inside the transaction that makes the change.
    """
    touched = list(matches_with_results(rnd, matches))
    if not touched:
        return []
    if not discard_results:
        tables = [m.table for m in touched]
        raise PairingRefused(
            problem("has_results", round=rnd.number, count=len(tables), tables=", ".join(map(str, tables)))
        )
    if not reason.strip():
        raise PairingRefused(problem("discard_needs_reason"))
    discarded = []
    for m in touched:
        discarded.append(
            {"match": snapshot(m), "results": [snapshot(r) for r in m.results.all()]}
        )
        m.results.all().delete()
        m.score_a = m.score_b = None
        bye = m.entry_b_id is None
        m.winner = "a" if bye else ""
        m.result_status = ResultStatus.CONFIRMED if bye else ResultStatus.PENDING
        m.version += 1
        m.save()
    return discarded
