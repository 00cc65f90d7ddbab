"""THE pairing path: read → pair → write → explain → audit, the same for every system.

The system's row in :data:`.systems.SYSTEMS` says which generator plans the
rounds and how its options are typed; everything else happens here once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from scoring.rules.errors import Problem
from tournaments.audit import record
from tournaments.models import Round, RoundStatus, Section, Tournament
from tournaments.rounds.flow import close_round
from zarik.collector import few_collections

from .checks import blockers, hard_blockers
from .reading import rounds_of
from .refusals import PairingRefused
from .status import update_status
from .systems import SYSTEMS, Request, System, options_of
from .withdrawn import settle_seated
from .writing import Progress, write_round


def audit(
    user, tournament: Tournament, action: str, obj, *, before=None, after=None, reason: str = ""
) -> None:
    """Record who changed a round and why, in the shared audit log."""
    record(user, tournament, action, obj, before, after, reason=reason)


def check_can_generate(
    tournament: Tournament, section: Section | None, reason: str, system: System
) -> list[Problem]:
    """Raise on what cannot be overridden; return the overridden problems (to record)."""
    hard = hard_blockers(tournament, section)
    if hard:
        raise PairingRefused(hard)
    if not system.overridable:
        return []
    soft = blockers(tournament, section)
    if soft and not reason.strip():
        raise PairingRefused(soft)
    return soft


def close_finished(tournament: Tournament, section: Section | None, user) -> None:
    """A published round whose results are all confirmed is closed (as the results desk does)."""
    for rnd in rounds_of(tournament, section).filter(status=RoundStatus.PUBLISHED):
        close_round(rnd, user)


def generate_next(
    tournament: Tournament,
    section: Section | None = None,
    *,
    user=None,
    reason: str = "",
    absent: Iterable[int] = (),
    half_bye: Iterable[int] = (),
    progress: Progress | None = None,
) -> list[Round]:
    """What "generate" means for the tournament's system: one round, a stage, or the schedule."""
    system = SYSTEMS[tournament.system]
    if not system.per_section:
        section = None
    overridden = check_can_generate(tournament, section, reason, system)
    request = Request(
        tournament,
        section,
        options_of(tournament, system),
        user=user,
        reason=reason,
        absent=absent,
        half_bye=half_bye,
        overridden=overridden,
    )
    # A big Swiss's history, players and tables are many objects, all alive to the end.
    with few_collections():
        plan = system.generate(request)
        single = len(plan.rounds) == 1
        rounds = []
        with transaction.atomic():
            close_finished(tournament, section, user)
            for i, planned in enumerate(plan.rounds):
                rounds.append(write_round(tournament, section, planned, progress if single else None))
                if progress is not None and not single:
                    progress(i + 1, len(plan.rounds))
            if system.fixed_schedule:
                # A later stage of a team knockout seats a member who withdrew before it was
                # drawn (his board is fixed): settled now, as his withdrawal settled the drafts
                # that existed then, so the stage publishes and closes (.withdrawn says why).
                settle_seated(rounds, user)
            audit(
                user,
                tournament,
                plan.action,
                rounds[0],
                after=plan.audit_after,
                reason=reason.strip(),
            )
            update_status(tournament, user)
    return rounds


def generate_swiss(tournament: Tournament, section: Section | None = None, **options: Any) -> Round:
    """Pair the next Swiss round of a section as a draft (the demo's entry point).

    Takes the keywords of :func:`generate_next`; a Swiss generates exactly one round.
    """
    [rnd] = generate_next(tournament, section, **options)
    return rnd
