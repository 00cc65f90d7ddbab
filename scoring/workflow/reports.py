"""Reporting a result and confirming it: a player, a referee or the director, by page or API."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import (
    Result,
    ResultState,
)
from tournaments import audit
from tournaments.access.permissions import (
    acts_as_official,
    allowed,
)
from tournaments.events import emit
from tournaments.models import (
    Match,
    ResultStatus,
)
from tournaments.rounds import flow as round_flow

from .base import (
    Visible,
    account,
    by_someone_else,
    check_result,
    check_version,
    clean_games,
    lock_match,
    make_confirmed,
    player_side,
    refuse,
    refuse_when_the_cup_moved_on,
    save_match,
    stored_score,
)


@transaction.atomic
def submit_result(
    match_id: int,
    user,
    *,
    version: int | None,
    final: tuple[int, int] | None = None,
    games: Iterable[Mapping[str, Any]] | None = None,
    confirm: bool = False,
    reason: str = "",
    visible: Visible | None = None,
) -> Result:
    """Report a result (a player, or a referee for the players to confirm) or enter it confirmed.

    On a match that already has a confirmed result this is a correction: only
    an official may make it, it needs a reason, and it is confirmed at once.
    """
    return report_on(
        lock_match(match_id, visible), user, version=version, final=final, games=games, confirm=confirm, reason=reason
    )


def report_on(
    match: Match,
    user,
    *,
    version: int | None,
    final: tuple[int, int] | None = None,
    games: Iterable[Mapping[str, Any]] | None = None,
    confirm: bool = False,
    reason: str = "",
) -> Result:
    """:func:`submit_result` on a match its caller locked (:func:`.base.lock_match`) in the
    transaction it has open: the API checks its caller's right on the locked row before it
    reads the body (issue 47), so an action reads its match once (issue 50)."""
    check_version(match, version)
    official = acts_as_official(user, match)
    if not (official or allowed(user, "result.report", match)):
        raise PermissionDenied
    if match.is_bye:
        raise refuse("bye", "bye")
    if match.result_status == ResultStatus.DISPUTED:
        raise refuse("disputed", "disputed")
    correction = match.result_status == ResultStatus.CONFIRMED
    if correction:
        if not official:
            raise refuse("confirmed", "confirmed")
        if not reason.strip():
            raise refuse("correction_reason", "reason_required")
    if confirm and not official:
        raise PermissionDenied
    ledger = clean_games(games)
    validation = check_result(match, final, ledger)
    if correction:
        refuse_when_the_cup_moved_on(match, validation.winner, "final")
    score_a, score_b = (stored_score(s) for s in validation.score)
    reports = list(match.results.filter(state=ResultState.REPORTED).order_by("pk"))
    if not official:
        pending = next((r for r in reports if by_someone_else(r, user, match)), None)
        if pending is not None:
            if (pending.score_a, pending.score_b) == (score_a, score_b):
                # Both players agree (Part 9: both report the result): that is a confirmation.
                return make_confirmed(
                    match,
                    pending,
                    user,
                    action="result.confirm",
                    reason=_("the same score reported by both players"),
                )
            raise refuse("conflict", "conflict", a=pending.score_a, b=pending.score_b)
    before = audit.snapshot(match)
    superseded = len(reports)
    if reports:
        Result.objects.filter(pk__in=[r.pk for r in reports]).update(state=ResultState.SUPERSEDED)
    result = Result.objects.create(
        match=match,
        score_a=score_a,
        score_b=score_b,
        games=ledger,
        state=ResultState.REPORTED,
        reported_by=account(user),
        reported_side="" if official else player_side(user, match),
        note=reason.strip(),
    )
    tournament = match.round.tournament
    if correction or confirm:
        action = "result.correct" if correction else "result.enter"
        return make_confirmed(match, result, user, action=action, reason=reason.strip())
    round_flow.announce_when_all_reported(match)
    save_match(match, result_status=ResultStatus.REPORTED)
    audit.record_many(
        user,
        tournament,
        [
            ("result.report", result, None, result, _("replaces an earlier report") if superseded else ""),
            ("match.result", match, before, match, ""),
        ],
    )
    emit("result.reported", tournament.pk, match=match, result=result.pk, side=result.reported_side)
    return result


@transaction.atomic
def confirm_result(
    match_id: int, result_id: int, user, *, version: int | None, visible: Visible | None = None
) -> Result:
    """The opponent (or an official) confirms a reported result."""
    return confirm_on(lock_match(match_id, visible), result_id, user, version=version)


def confirm_on(match: Match, result_id: int, user, *, version: int | None) -> Result:
    """:func:`confirm_result` on a match its caller locked in its open transaction (see :func:`report_on`)."""
    check_version(match, version)
    results = list(match.results.order_by("pk"))  # not Result's ordering (it joins the match's round…)
    result = next((r for r in results if r.pk == int(result_id)), None)
    if result is None:
        raise refuse("report_missing", "missing")
    if result.state == ResultState.CONFIRMED:
        raise refuse("already_confirmed", "duplicate")
    if result.state != ResultState.REPORTED:
        raise refuse("not_confirmable", "state")
    if not allowed(user, "result.confirm", result):
        raise PermissionDenied
    others = [r for r in results if r.pk != result.pk]
    return make_confirmed(match, result, user, action="result.confirm", others=others)
