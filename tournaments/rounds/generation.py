"""Generate the next round from the organiser's choices: now, or as a background job for big fields.

The round page's "generate" form and the API's ``generate`` action both call
:func:`generate`, so the rule "from 300 players on, pair in the background" and
the job's hand-over live in one place. Pairing itself is
:func:`tournaments.rounds.pairing_manager.generate_next`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.rules.errors import Problem
from tournaments.jobs import progress as jobs
from tournaments.models import Section, Tournament

from . import pairing_manager as pm
from .tasks import pair_round

BIG_FIELD = 300  # players: from here on the round is paired by the background task


@dataclass
class Generated:
    """What came of a "generate": the new rounds' ids, or a job still running, or problems."""

    rounds: list[int] = field(default_factory=list)
    job: str | None = None
    problems: list[Problem] = field(default_factory=list)


def generate(
    tournament: Tournament,
    section: Section | None,
    user,
    *,
    reason: str = "",
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
    background: bool = False,
) -> Generated:
    """Pair now, or start the pairing job when asked or when the field is big.

    A job that has finished when this returns (``EMBEDDED_JOBS = "inline"``, the tests) is
    answered at once, its rounds or its problems, as for a pairing made in the request;
    otherwise (a worker, or the embedded runner's thread under ``make run``) the job is
    answered and the round page and the API poll it.
    """
    absent, half_bye = list(absent), list(half_bye)
    if background or tournament.entries.count() >= BIG_FIELD:
        job = jobs.start(tournament.slug)
        args = (tournament.pk, section.pk if section else None, user.pk, reason, absent, half_bye)
        jobs.enqueue(pair_round, (*args, job), job)
        status = jobs.read_status(tournament.slug, job) or {}
        if status.get("state") == jobs.SUCCESS:
            return Generated(rounds=list(status["rounds"]))
        if status.get("state") == jobs.FAILURE:
            return Generated(problems=jobs.problems(status))
        return Generated(job=job)
    try:
        created = pm.generate_next(
            tournament, section, user=user, reason=reason, absent=absent, half_bye=half_bye
        )
    except pm.PairingRefused as exc:
        return Generated(problems=exc.problems)
    return Generated(rounds=[r.pk for r in created])


def job_state(tournament: Tournament, job: str) -> dict[str, Any] | None:
    """A background pairing's progress for the round page and the API (None: no such job here).

    ``state`` is QUEUED, PROGRESS (with ``done``/``total``), SUCCESS (with the new
    ``rounds``' ids) or FAILURE (with ``problems``). A job the worker lost before it
    wrote anything is FAILURE too, so nobody polls forever.
    """
    status = jobs.read_status(tournament.slug, job)
    if status is None:
        return None
    status = jobs.settle(tournament.slug, job, status)  # a worker that died mid-job: failed
    state = status["state"]
    if state == jobs.QUEUED and jobs.worker_state(pair_round, job) == jobs.FAILURE:
        state, status = jobs.FAILURE, {"state": jobs.FAILURE}
    out: dict[str, Any] = {"state": state, "done": None, "total": None, "rounds": [], "problems": []}
    if state == jobs.PROGRESS:
        out.update(done=status.get("done"), total=status.get("total"))
    elif state == jobs.SUCCESS:
        out["rounds"] = list(status.get("rounds") or [])
    elif state == jobs.FAILURE:
        out["problems"] = jobs.problems(status)
    return out
