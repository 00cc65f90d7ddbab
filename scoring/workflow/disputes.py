"""Disputes and rulings: a player disputes a report, the referee rules, an appeal goes to the jury."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
    appeal_window_closed,
    dispute_window_closed,
    side_of,
)
from tournaments.events import emit
from tournaments.models import (
    EntryStatus,
    Match,
    ResultKind,
    ResultStatus,
)
from tournaments.rounds.pairing_manager.withdrawn import SETTLE_CHOICES, SETTLE_FORFEIT

from .base import (
    ResultError,
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
    refuse_when_the_cup_moved_on,
    save_match,
    stored_score,
)
from .withdrawals import settle_pending


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
    decided = ruled_results(match).get(result.pk)
    if decided is not None:
        raise refuse("jury_final" if decided == DisputeState.FINAL else "ruling_stands", "state")
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
    emit("dispute.opened", tournament.pk, match=match, dispute=dispute.pk)
    return dispute


def ruled_results(match: Match) -> dict[int, str]:
    """The match's results that a ruling set, with their dispute's state (ruled or final).

    Such a result is not disputed again before the director: the book sends a
    player who disagrees with the director's decision to the jury (Part 9,
    ``part9_competition_rules.ru.txt`` line 37), and the jury's decision is final.
    """
    rows = match.disputes.filter(
        state__in=[DisputeState.RULED, DisputeState.FINAL], decided_result__isnull=False
    ).values_list("decided_result_id", "state")
    return dict(rows)


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
    if outcome == Outcome.VOID:
        refuse_when_the_cup_moved_on(match, None)
    elif outcome == Outcome.REPLACE:
        refuse_when_the_cup_moved_on(match, check_result(match, final, clean_games(games)).winner)
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
        _settle_for_a_departed_player(match, user, reason)
        return None
    raise refuse("outcome", "outcome")


def _settle_for_a_departed_player(match: Match, user, reason: str) -> None:
    """A voided result sends the match back to "not played". A player who has left the event
    since (withdrawn, disqualified) can never play it, and a withdrawal does not settle a match
    under dispute, so it would wait for him for ever (a round robin's schedule would never end):
    it is settled now as his withdrawal settled his other matches — a forfeit to his opponent,
    or void, as the director chose when he left (book, Part 9, line 39: the sanctions)."""
    gone = next((e for e in (match.entry_a, match.entry_b) if e is not None and e.status == EntryStatus.WITHDRAWN),
                None)  # fmt: skip
    if gone is not None:
        settle_pending(gone, user, gone.settle if gone.settle in SETTLE_CHOICES else SETTLE_FORFEIT, reason)


def _lock_dispute(
    dispute_id: int,
    user,
    permission: str,
    *,
    version: int | None = None,
    explain: Callable[[Dispute, Match, Any], ResultError | None] | None = None,
) -> tuple[Dispute, Match]:
    """Lock the dispute and its match, then check the version read (if any) and the user's right.

    ``explain`` turns a refusal a person can act on (a closed window) into its message
    instead of a bare "forbidden".
    """
    dispute = Dispute.objects.filter(pk=dispute_id).only("match_id").first()
    if dispute is None:
        raise refuse("dispute_missing", "missing")
    match = lock_match(dispute.match_id)
    dispute = (
        Dispute.objects.select_for_update(of=("self",)).select_related("result").get(pk=dispute_id)
    )
    check_version(match, version)
    if not allowed(user, permission, dispute):
        refusal = explain(dispute, match, user) if explain is not None else None
        if refusal is not None:
            raise refusal
        raise PermissionDenied
    return dispute, match


def _save_dispute(dispute: Dispute, match: Match, user, action: str, before, reason: str) -> Dispute:
    """Write the dispute's new step and its audit line."""
    dispute.save()
    audit.record(user, match.round.tournament, action, dispute, before, dispute, reason)
    if action in ("dispute.rule", "dispute.final"):
        final = action == "dispute.final"
        emit("dispute.ruled", match.round.tournament_id, match=match, dispute=dispute.pk, final=final)
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


def _appeal_refusal(dispute: Dispute, match: Match, user) -> ResultError | None:
    """Why a player of the match may not appeal (the window has closed), said plainly; else None."""
    closed = appeal_window_closed(dispute)
    if closed is not None and side_of(user, match):
        return refuse("appeal_window", "window", minutes=closed)
    return None


@transaction.atomic
def appeal_dispute(dispute_id: int, user, *, reason: str) -> Dispute:
    """A player of the match appeals the director's ruling to the jury, once.

    Book Part 9 (``part9_competition_rules.ru.txt`` line 37): a player who
    disagrees with the director's decision takes it to the jury, whose decision
    is final. The one path for the page, the private link and the API: the
    permission row ``dispute.appeal`` (a player of the match, within the
    organiser's window, :func:`~tournaments.access.permissions.appeal_window_closed`)
    decides who may, and the side is stored so an appeal through a private link
    (no account) still names its player.
    """
    dispute, match = _lock_dispute(dispute_id, user, "dispute.appeal", explain=_appeal_refusal)
    if dispute.state != DisputeState.RULED:
        name = {DisputeState.OPEN: "not_ruled_yet", DisputeState.FINAL: "jury_final"}.get(
            dispute.state, "already_appealed"
        )
        raise refuse(name, "state")
    if not reason.strip():
        raise refuse("appeal_reason", "reason_required")
    before = audit.snapshot(dispute)
    dispute.state = DisputeState.APPEALED
    dispute.appeal_reason = reason.strip()
    dispute.appealed_by, dispute.appealed_at = account(user), timezone.now()
    dispute.appealed_side = player_side(user, match)
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
