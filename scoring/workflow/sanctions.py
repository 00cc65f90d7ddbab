"""Discipline: sanctions (warnings, penalty points, annulled games, disqualification), audited."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.models import (
    Result,
    ResultState,
    Sanction,
    SanctionKind,
)
from tournaments import audit
from tournaments.access.permissions import (
    allowed,
    is_organiser,
)
from tournaments.events import emit
from tournaments.models import (
    Entry,
    Match,
    PenaltyFrom,
    ResultKind,
    ResultStatus,
    StandingsAdjustment,
    Tournament,
)
from tournaments.validation import (
    match_spec,
    validate_result,
)

from .base import (
    account,
    clear_result,
    lock_match,
    make_confirmed,
    refuse,
    save_match,
    stored_score,
)
from .kinds import record_kind
from .withdrawals import remove_entry

# --------------------------------------------------------------------------- discipline


def _annul_game(match_id: int, number: int, user, reason: str) -> None:
    """Take game ``number`` out of the match's ledger (Part 9, prompting), through the workflow.

    A match still in play with nothing reported: nothing to change yet, the
    players report the match without that game. With a recorded ledger: if the
    games left still finish the match, that is the corrected result (confirmed,
    audited, ratings recomputed); otherwise the match goes back to play from
    the score without the game (the results set aside, as a voided report).
    A result with a final score but no games cannot lose one game: the
    director corrects the score instead.
    """
    match = lock_match(match_id)
    standing = match.results.filter(state=ResultState.CONFIRMED).order_by().first() or (
        match.results.filter(state__in=[ResultState.REPORTED, ResultState.DISPUTED])
        .order_by("-reported_at", "-pk")
        .first()
    )
    if standing is None:
        return
    games = list(standing.games or [])
    if not games:
        raise refuse("annul_needs_ledger", "ledger")
    if number > len(games):
        raise refuse("annul_no_game", "game", number=number, games=len(games))
    rest = games[: number - 1] + games[number:]
    validation = validate_result(match, games=rest) if rest else None
    if validation is not None and validation.ok:
        score_a, score_b = (stored_score(x) for x in validation.score)
        result = Result.objects.create(
            match=match, score_a=score_a, score_b=score_b, games=rest,
            state=ResultState.REPORTED, reported_by=account(user), note=reason,
        )  # fmt: skip
        make_confirmed(match, result, user, action="result.correct", reason=reason)
        return
    clear_result(match, user, reason, kind=ResultKind.PLAYED, status=ResultStatus.PENDING)
    emit("standings.changed", match.round.tournament_id, match=match)


def _penalty_points(points: Any) -> Decimal:
    """A penalty's points: a positive number in steps of ½ (the ledger stores halves exactly)."""
    try:
        amount = Decimal(str(points)) if points not in (None, "") else None
    except InvalidOperation:
        amount = None
    if amount is None or amount <= 0 or (amount * 2) != (amount * 2).to_integral_value():
        raise refuse("penalty_points", "points", value=points if points not in (None, "") else "—")
    if amount > 999:
        raise refuse("penalty_points", "points", value=points)
    return amount


@transaction.atomic
def record_sanction(
    tournament: Tournament,
    entry: Entry,
    user,
    *,
    kind: str,
    reason: str,
    points: Any = None,
    match: Match | None = None,
    game: int | None = None,
    past: str = "keep",
    settle: str = "forfeit",
) -> Sanction:
    """A warning, penalty or disqualification decided by the director or the jury (Part 9).

    A penalty needs an earlier warning to the same player (the book: the director
    may fine a slow player "but with a prior warning") and a number of points: they
    are taken from the player's tournament score as a
    :class:`~tournaments.models.StandingsAdjustment`, which the standings core
    counts in the main score and every page marks with the reason. An
    annulled game (Part 9: "партия игрока, получившего подсказку, аннулируется")
    leaves the match's ledger (:func:`_annul_game`). A disqualification also
    withdraws the entry (:func:`remove_entry`: remaining matches settled by ``settle``,
    past results kept or voided by ``past``), so it is not paired again.
    """
    if not allowed(user, "sanction.record", tournament):
        raise PermissionDenied
    if entry.tournament_id != tournament.pk:
        raise refuse("not_entered", "entry")
    if kind not in SanctionKind.values:
        raise refuse("sanction_kind", "kind")
    if not reason.strip():
        raise refuse("sanction_reason", "reason_required")
    if kind == SanctionKind.ANNUL:
        if match is None or entry.pk not in (match.entry_a_id, match.entry_b_id):
            raise refuse("annul_match", "match")
        if not game or int(game) < 1:
            raise refuse("annul_game", "game")
        _annul_game(match.pk, int(game), user, reason.strip())
    if (
        kind == SanctionKind.PENALTY
        and not entry.sanctions.filter(kind=SanctionKind.WARNING).exists()
    ):
        raise refuse("warning_first", "warning_first")
    adjustment = None
    if kind == SanctionKind.PENALTY:
        amount = _penalty_points(points)
        if tournament.penalty_from == PenaltyFrom.MATCH:
            _penalty_to_opponent(match, entry, amount, user, reason.strip())
        else:
            adjustment = StandingsAdjustment.objects.create(
                tournament=tournament, entry=entry, points=-amount, reason=reason.strip()
            )
    decided_as = "director" if is_organiser(user, tournament) else "jury"
    sanction = Sanction.objects.create(
        tournament=tournament,
        entry=entry,
        match=match,
        kind=kind,
        points=points,
        decided_by=user,
        decided_as=decided_as,
        reason=reason.strip(),
        adjustment=adjustment,
        game=game if kind == SanctionKind.ANNUL else None,
    )
    audit.record(user, tournament, "sanction." + kind, sanction, None, sanction, reason.strip())
    emit("sanction.recorded", tournament.pk, entry=entry.pk, sanction=sanction.pk)
    if kind == SanctionKind.DISQUALIFICATION and not entry.removal:
        remove_entry(entry, user, how="disqualified", reason=reason, past=past, settle=settle)
    return sanction


def _penalty_to_opponent(match: Match | None, entry: Entry, amount: Decimal, user, reason: str) -> None:
    """A penalty "from the match score" (the organiser's rule): the opponent's score in the
    match being played goes up by the points, exactly as a lateness penalty does — the match
    continues from the new starting score (``Match.start_a/b``, which the ledger and the
    final-score check start from), and a penalty that reaches the match length ends it as a
    forfeit. Only a whole number of points can be added to a match score."""
    if match is None or entry.pk not in (match.entry_a_id, match.entry_b_id) or match.is_bye:
        raise refuse("penalty_match", "match")
    if amount != amount.to_integral_value():
        raise refuse("penalty_whole", "points", value=amount)
    locked = lock_match(match.pk)
    if locked.result_status != ResultStatus.PENDING:
        raise refuse("penalty_match_started", "state", table=locked.table or "—")
    before = audit.snapshot(locked)
    to_b = entry.pk == locked.entry_a_id
    start_a, start_b = locked.start_a + (0 if to_b else int(amount)), locked.start_b + (int(amount) if to_b else 0)
    spec = match_spec(locked)
    length = spec.length if spec.is_points else None
    if length and max(start_a, start_b) >= length:
        record_kind(locked, user, ResultKind.FORFEIT, "b" if to_b else "a", reason)
        return
    save_match(locked, start_a=start_a, start_b=start_b)
    audit.record(user, locked.round.tournament, "match.penalty", locked, before, locked, reason)
    emit("standings.changed", locked.round.tournament_id, match=locked)
