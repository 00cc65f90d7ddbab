"""Disputes and rulings: a player disputes a report, the referee rules, an appeal goes to the jury."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from scoring.models import (
    Dispute,
    DisputeState,
    Outcome,
    Result,
    ResultState,
)
from tournaments import audit
from tournaments.access.permissions import (
    allowed,
    dispute_window_closed,
    side_of,
)
from tournaments.events import emit
from tournaments.models import (
    Match,
    ResultKind,
    ResultStatus,
)

from .base import (
    Visible,
    account,
    check_result,
    check_version,
    clean_games,
    clear_result,
    lock_match,
    make_confirmed,
    player_side,
    refuse,
    save_match,
    stored_score,
)


@transaction.atomic
def dispute_result(
    match_id: int, result_id: int, user, *, version: int | None, reason: str, visible: Visible | None = None
) -> Dispute:
    """A player contests a report, or a confirmed result within the organiser's window.

    The window (``Tournament.dispute_window``, minutes after the confirmation)
    is checked by the permission row ``result.dispute``; past it the refusal says
    so (``workflow.dispute_window``) rather than a bare "forbidden".
    """
    match = lock_match(match_id, visible)
    check_version(match, version)
    result = match.results.filter(pk=result_id).order_by().first()
    if result is None:
        raise refuse("report_missing", "missing")
    if not allowed(user, "result.dispute", result):
        closed = dispute_window_closed(result)
        if closed is not None and side_of(user, match):
            raise refuse("dispute_window", "window", minutes=closed)
        raise PermissionDenied
    if not reason.strip():
        raise refuse("dispute_reason", "reason_required")
    if match.disputes.filter(state__in=[DisputeState.OPEN, DisputeState.APPEALED]).exists():
        raise refuse("under_dispute", "disputed")
    before = audit.snapshot(result)
    if result.state == ResultState.REPORTED:
        result.state = ResultState.DISPUTED
        result.save(update_fields=["state"])
    dispute = Dispute.objects.create(
        match=match,
        result=result,
        raised_by=account(user),
        raised_side=player_side(user, match),
        reason=reason.strip(),
    )
    before_match = audit.snapshot(match)
    save_match(match, result_status=ResultStatus.DISPUTED)
    tournament = match.round.tournament
    audit.record(user, tournament, "result.dispute", result, before, result, reason.strip())
    audit.record(user, tournament, "dispute.open", dispute, None, dispute, reason.strip())
    audit.record(user, tournament, "match.result", match, before_match, match)
    emit("dispute.opened", tournament.pk, match=match.pk, dispute=dispute.pk)
    return dispute


def _apply_outcome(
    match: Match,
    dispute: Dispute,
    user,
    outcome: str,
    reason: str,
    final: tuple[int, int] | None,
    games: Iterable[Mapping[str, Any]] | None,
) -> Result | None:
    """Carry out a ruling on the match; returns the result that now stands (None if void)."""
    disputed = dispute.result
    if outcome == Outcome.UPHOLD:
        if disputed is None:
            raise refuse("disputed_report_missing")
        if disputed.state == ResultState.CONFIRMED:
            before = audit.snapshot(match)
            save_match(match, result_status=ResultStatus.CONFIRMED)
            audit.record(user, match.round.tournament, "match.result", match, before, match, reason)
            return disputed
        if disputed.state not in (ResultState.DISPUTED, ResultState.REPORTED):
            disputed.state = ResultState.REPORTED
        return make_confirmed(match, disputed, user, action="result.ruling", reason=reason)
    if outcome == Outcome.REPLACE:
        ledger = clean_games(games)
        validation = check_result(match, final, ledger)
        score_a, score_b = (stored_score(s) for s in validation.score)
        if disputed is not None and disputed.state == ResultState.DISPUTED:
            disputed.state = ResultState.REJECTED
            disputed.save(update_fields=["state"])
        new = Result.objects.create(
            match=match,
            score_a=score_a,
            score_b=score_b,
            games=ledger,
            state=ResultState.REPORTED,
            reported_by=user,
            note=reason,
        )
        return make_confirmed(match, new, user, action="result.ruling", reason=reason)
    if outcome == Outcome.VOID:
        clear_result(match, user, reason, kind=ResultKind.PLAYED, status=ResultStatus.PENDING)
        return None
    raise refuse("outcome", "outcome")


def _lock_dispute(
    dispute_id: int, user, permission: str, *, version: int | None = None
) -> tuple[Dispute, Match]:
    """Lock the dispute and its match, then check the version read (if any) and the user's right."""
    dispute = Dispute.objects.filter(pk=dispute_id).only("match_id").first()
    if dispute is None:
        raise refuse("dispute_missing", "missing")
    match = lock_match(dispute.match_id)
    dispute = (
        Dispute.objects.select_for_update(of=("self",)).select_related("result").get(pk=dispute_id)
    )
    check_version(match, version)
    if not allowed(user, permission, dispute):
        raise PermissionDenied
    return dispute, match


def _save_dispute(dispute: Dispute, match: Match, user, action: str, before, reason: str) -> Dispute:
    """Write the dispute's new step and its audit line."""
    dispute.save()
    audit.record(user, match.round.tournament, action, dispute, before, dispute, reason)
    if action in ("dispute.rule", "dispute.final"):
        final = action == "dispute.final"
        emit("dispute.ruled", match.round.tournament_id, match=match.pk, dispute=dispute.pk, final=final)
    return dispute


@transaction.atomic
def rule_dispute(
    dispute_id: int,
    user,
    *,
    outcome: str,
    ruling: str,
    version: int | None,
    final: tuple[int, int] | None = None,
    games: Iterable[Mapping[str, Any]] | None = None,
) -> Dispute:
    """The director's ruling (Part 9); a player who disagrees may appeal to the jury."""
    dispute, match = _lock_dispute(dispute_id, user, "dispute.rule", version=version)
    if dispute.state != DisputeState.OPEN:
        raise refuse("already_ruled", "state")
    if not ruling.strip():
        raise refuse("ruling_reason", "reason_required")
    if outcome == Outcome.SUSTAIN:
        raise refuse("outcome", "outcome")
    before = audit.snapshot(dispute)
    dispute.decided_result = _apply_outcome(
        match, dispute, user, outcome, ruling.strip(), final, games
    )
    dispute.state = DisputeState.RULED
    dispute.ruling, dispute.ruling_outcome = ruling.strip(), outcome
    dispute.ruled_by, dispute.ruled_at = user, timezone.now()
    return _save_dispute(dispute, match, user, "dispute.rule", before, ruling.strip())


@transaction.atomic
def appeal_dispute(dispute_id: int, user, *, reason: str) -> Dispute:
    """A player appeals the director's ruling to the jury."""
    dispute, match = _lock_dispute(dispute_id, user, "dispute.appeal")
    if dispute.state != DisputeState.RULED:
        name = "not_ruled_yet" if dispute.state == DisputeState.OPEN else "already_appealed"
        raise refuse(name, "state")
    if not reason.strip():
        raise refuse("appeal_reason", "reason_required")
    before = audit.snapshot(dispute)
    dispute.state = DisputeState.APPEALED
    dispute.appeal_reason = reason.strip()
    dispute.appealed_by, dispute.appealed_at = account(user), timezone.now()
    return _save_dispute(dispute, match, user, "dispute.appeal", before, reason.strip())


@transaction.atomic
def decide_appeal(
    dispute_id: int,
    user,
    *,
    outcome: str,
    decision: str,
    version: int | None,
    final: tuple[int, int] | None = None,
    games: Iterable[Mapping[str, Any]] | None = None,
) -> Dispute:
    """The jury's decision on an appeal: final, nothing follows it."""
    dispute, match = _lock_dispute(dispute_id, user, "dispute.decide", version=version)
    if dispute.state != DisputeState.APPEALED:
        name = "jury_final" if dispute.state == DisputeState.FINAL else "not_appealed"
        raise refuse(name, "state")
    if not decision.strip():
        raise refuse("jury_reason", "reason_required")
    before = audit.snapshot(dispute)
    if outcome != Outcome.SUSTAIN:
        dispute.decided_result = _apply_outcome(
            match, dispute, user, outcome, decision.strip(), final, games
        )
    dispute.state = DisputeState.FINAL
    dispute.jury_decision, dispute.jury_outcome = decision.strip(), outcome
    dispute.jury_by, dispute.jury_at = user, timezone.now()
    return _save_dispute(dispute, match, user, "dispute.final", before, decision.strip())
