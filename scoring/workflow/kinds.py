"""Results without play and time: forfeits, byes, voids, time forfeits, lateness penalties and the
match clock, decided by the director (book Part 9)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import (
    Result,
    ResultState,
)
from scoring.rules.match.result_kinds import TimeControl, lateness_penalty
from tournaments import audit
from tournaments.access.permissions import (
    allowed,
)
from tournaments.events import emit
from tournaments.models import (
    Match,
    ResultKind,
    ResultStatus,
)
from tournaments.rounds import flow as round_flow
from tournaments.validation import (
    kind_result,
    lateness_rule,
    match_spec,
    time_control,
)
from zarik.i18n import current_language

from .base import (
    InvalidResult,
    account,
    check_version,
    clear_result,
    lock_match,
    make_confirmed,
    refuse,
    save_match,
    stored_score,
)


def _director_lock(match_id: int, user, version: int | None) -> Match:
    """Lock the match for a director's desk action (forfeits, lateness): the desk's right."""
    match = lock_match(match_id)
    check_version(match, version)
    if not allowed(user, "desk.run", match.round.tournament):
        raise PermissionDenied
    if match.is_bye:
        raise refuse("bye", "bye")
    return match


def record_kind(match: Match, user, kind: str, winner: str | None, reason: str, *,
                 played=None, games_played: int = 0) -> Result | None:
    """Write a forfeit / double forfeit / time forfeit / void on a locked match (audited)."""
    if kind == ResultKind.VOID:
        if not match.is_bye:  # a void pairing is checked too (a cup's match must have a winner)
            verdict = kind_result(match, kind, None)
            if not verdict.ok:
                raise InvalidResult(verdict.problems)
        clear_result(
            match, user, reason, kind=ResultKind.VOID, status=ResultStatus.CONFIRMED,
            action="result.forfeit",
        )
        tournament = match.round.tournament
        round_flow.close_when_complete(match)
        emit("standings.changed", tournament.pk, match=match)
        return None
    verdict = kind_result(match, kind, winner, played=played, games_played=games_played)
    if not verdict.ok:
        raise InvalidResult(verdict.problems)
    match.results.filter(state__in=[ResultState.REPORTED, ResultState.DISPUTED]).update(
        state=ResultState.SUPERSEDED
    )
    result = Result.objects.create(
        match=match,
        score_a=stored_score(verdict.score[0]),
        score_b=stored_score(verdict.score[1]),
        kind=kind,
        winner=verdict.winner or "",
        state=ResultState.REPORTED,
        reported_by=account(user),
        note=reason,
    )
    return make_confirmed(match, result, user, action="result.forfeit", reason=reason)


@transaction.atomic
def record_kind_result(
    match_id: int,
    user,
    *,
    version: int | None,
    kind: str,
    winner: str | None = None,
    reason: str,
    played: tuple[Any, Any] | None = None,
    games_played: int = 0,
) -> Result | None:
    """The director settles a match that was not (fully) played: forfeit, double forfeit,
    time forfeit or void. The score follows the tournament's forfeit rule (the rules core,
    :func:`scoring.rules.match.result_kinds.result_for_kind`); ``played`` is the score on the
    sheet when play stopped (a time forfeit). Forfeits are never rated; a void pairing
    counts for nobody. Returns the confirmed result (None for a void match)."""
    match = _director_lock(match_id, user, version)
    if not reason.strip():
        raise refuse("kind_reason", "reason_required")
    if match.result_status == ResultStatus.DISPUTED:
        raise refuse("disputed", "disputed")
    if match.result_status == ResultStatus.CONFIRMED:
        raise refuse("kind_settled", "confirmed", table=match.table or "—")
    return record_kind(
        match, user, kind, winner or None, reason.strip(), played=played, games_played=games_played
    )


@transaction.atomic
def apply_lateness(
    match_id: int, user, *, version: int | None, late_side: str, minutes: Any, reason: str = ""
) -> Match:
    """The director applies the tournament's lateness rule at the desk.

    Penalty points go to the opponent and the match starts from them (``Match.start_a/b``:
    the ledger and the final-score check start there); at the rule's forfeit time, or when
    the penalty reaches the match length, the late player loses by forfeit. Audited.
    """
    match = _director_lock(match_id, user, version)
    if match.result_status != ResultStatus.PENDING:
        raise refuse("lateness_started", "state", table=match.table or "—")
    tournament = match.round.tournament
    try:
        minutes = int(minutes)
    except (TypeError, ValueError):
        pass
    verdict = lateness_penalty(lateness_rule(tournament), match_spec(match), late_side, minutes)
    if not verdict.ok:
        raise InvalidResult(verdict.problems)
    note = reason.strip() or _("%(minutes)s minutes late") % {"minutes": minutes}
    if verdict.forfeit:
        winner = "b" if late_side == "a" else "a"
        record_kind(match, user, ResultKind.FORFEIT, winner, note)
        return match
    before = audit.snapshot(match)
    save_match(match, start_a=int(verdict.start[0]), start_b=int(verdict.start[1]))
    audit.record(user, tournament, "match.lateness", match, before, match, note)
    emit("standings.changed", tournament.pk, match=match)
    return match


@transaction.atomic
def install_clock(
    match_id: int, user, *, version: int | None, minutes_per_point: int | None,
    delay_seconds: int = 0, increment_seconds: int = 0, reason: str = "",
) -> Match:
    """The director installs chess clocks on one match (Part 9: a player may ask the director
    to, when the opponent slows the game down), with its own policy; ``minutes_per_point=None``
    takes them off (the tournament's policy applies again). Checked by the core, audited."""
    match = _director_lock(match_id, user, version)
    tournament = match.round.tournament
    policy = TimeControl(tournament.move_seconds, minutes_per_point, delay_seconds or 0,
                         increment_seconds or 0)
    problems = policy.problems()
    if problems:
        raise InvalidResult(problems)
    before = audit.snapshot(match)
    save_match(
        match, clock_minutes_per_point=minutes_per_point or None,
        clock_delay_seconds=(delay_seconds or 0) if minutes_per_point else None,
        clock_increment_seconds=(increment_seconds or 0) if minutes_per_point else None,
    )
    audit.record(user, tournament, "match.clock", match, before, match, reason.strip())
    return match


def match_timing(match: Match) -> str:
    """The match's time control in the reader's words ("45 s a move; clock: …"), for the desk."""
    spec = match_spec(match)
    length = spec.length if spec.is_points else spec.fixed_games
    return time_control(match.round.tournament, match).describe(current_language(), length)
