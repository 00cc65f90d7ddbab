"""The result workflow: report, confirm, dispute, rule, appeal, correct — and the round flow.

Every action runs in one transaction that first locks the match row
(``select_for_update``) and then checks the version the user saw
(``Match.version``, a hidden field in every form). Of two people saving the
same match at once, the second waits for the lock, finds the version moved and
is told so plainly; nothing is overwritten unseen. The partial unique index on
:class:`~scoring.models.Result` is the last line: a second confirmation fails
in the database even if everything above were bypassed, and is reported as a
plain message, never a 500.

Validation goes through :func:`tournaments.validation.validate_result` (the one
entry point to the rules core), and every change writes an audit entry.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import (
    Dispute,
    DisputeState,
    Outcome,
    Result,
    ResultState,
    Sanction,
    SanctionKind,
)
from scoring.rules.errors import Problem
from scoring.rules.result_kinds import TimeControl, lateness_penalty
from tournaments import audit
from tournaments.access.permissions import (
    acts_as_official,
    allowed,
    dispute_window_closed,
    is_organiser,
    side_of,
)
from tournaments.access.visibility import is_public_round
from tournaments.cache import complete_at_version, invalidate_results
from tournaments.entries import status as entry_status
from tournaments.events import emit
from tournaments.models import (
    Entry,
    EntryStatus,
    Game,
    Match,
    PenaltyFrom,
    ResultKind,
    ResultStatus,
    StandingsAdjustment,
    Tournament,
)
from tournaments.ratings import service as ratings_service
from tournaments.ratings import tasks
from tournaments.rounds import flow as round_flow
from tournaments.validation import (
    kind_result,
    lateness_rule,
    match_spec,
    time_control,
    validate_result,
)
from zarik.i18n import current_language

from .problems import workflow_problem

logger = logging.getLogger(__name__)


class ResultError(Exception):
    """A refusal to show the user as it is: what happened and what to do.

    Carries a ``workflow.*`` problem (:mod:`scoring.workflow.problems`), rendered
    in the reader's language by :attr:`message`. ``code`` is the short, stable
    kind of refusal API clients see ("missing", "duplicate", "state", …).
    """

    code = "refused"

    def __init__(self, problem: Problem, code: str | None = None):
        self.problem = problem
        super().__init__(problem.code)
        if code:
            self.code = code

    @property
    def message(self) -> str:
        return self.problem.message(current_language())

    def __str__(self) -> str:
        return self.problem.message("en")


def refuse(name: str, code: str | None = None, **details: Any) -> ResultError:
    """The :class:`ResultError` for ``workflow.<name>`` (raise it)."""
    return ResultError(workflow_problem(name, **details), code)


class StaleVersion(ResultError):
    """Someone else saved the match after this user loaded it."""

    code = "stale"

    @staticmethod
    def problem_for(seen: int, now: int) -> Problem:
        return workflow_problem("stale", seen=seen, now=now)

    @staticmethod
    def message_for(seen: int, now: int) -> str:
        return StaleVersion.problem_for(seen, now).message(current_language())


class InvalidResult(ResultError):
    """The rules core refused the result; ``problems`` say where and why."""

    code = "invalid"

    def __init__(self, problems: Sequence[Problem]):
        super().__init__(workflow_problem("invalid"))
        self.problems = tuple(problems)


# --------------------------------------------------------------------------- helpers


#: A caller's own "may this caller see the match?" (the API's route and tournament rules): a
#: match it may not see is a 404, checked on the locked row instead of one query more.
Visible = Callable[[Match], bool]


def _lock_match(match_id: int, visible: Visible | None = None) -> Match:
    """The match row, locked until the transaction ends (PostgreSQL; SQLite serialises writes).

    The one draft-round guard of the workflow: every report, confirmation,
    dispute, ruling and appeal starts here, so nothing is ever done on a match
    of a round that is not published (:mod:`tournaments.access.visibility`). With
    ``visible``, a missing, draft or unseen match is a 404, as for a read.
    """
    try:
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__section")  # the entries and players: complete_at_version
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        if visible is not None:
            raise Http404 from None
        raise refuse("match_missing", "missing") from None
    complete_at_version(match)
    if visible is not None and not (is_public_round(match.round) and visible(match)):
        raise Http404
    if not is_public_round(match.round):
        raise refuse("draft_round", "draft", round=match.round.number)
    return match


def _check_version(match: Match, version: int | None) -> None:
    if version is not None and int(version) != match.version:
        raise StaleVersion(StaleVersion.problem_for(version, match.version))


def _save_match(match: Match, **fields: Any) -> None:
    """Write result fields and move the version on, guarded by the version we read."""
    seen = match.version
    # The round's public pairings show a score only once it is confirmed: a report or a
    # dispute of a report (only the status moving, confirmed neither before nor after)
    # leaves them cached — at twenty reports a second that halves their rebuilds.
    shown = bool(set(fields) - {"result_status"}) or ResultStatus.CONFIRMED in (
        match.result_status,
        fields.get("result_status"),
    )
    fields["version"] = seen + 1
    fields["updated_at"] = timezone.now()
    updated = Match.objects.filter(pk=match.pk, version=seen).update(**fields)
    if updated != 1:  # only possible without row locks (SQLite): the optimistic check
        raise StaleVersion(workflow_problem("stale_same_moment"))
    for name, value in fields.items():
        setattr(match, name, value)
    # An update() sends no signal: the standings (and this round's pages if shown) go now.
    invalidate_results(match.round.tournament_id, match.round_id if shown else None)


def _stored(value: Any) -> int | Decimal:
    """A score as the database keeps it: exactly, in halves (the equal-moves draw is worth ½)."""
    number = Fraction(value)
    if number.denominator == 1:
        return int(number)
    return Decimal(number.numerator) / number.denominator


def clean_games(games: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The ledger as stored in ``Result.games``: plain JSON values, empty rows dropped."""
    out = []
    for g in games or ():
        if not any(g.get(k) for k in ("winner", "kind", "record")):
            continue
        out.append(
            {
                "winner": g.get("winner") or None,
                "kind": g.get("kind") or "",
                "cube": int(g.get("cube") or 1),
                "dropped": bool(g.get("dropped")),
                "autodoubles": int(g.get("autodoubles") or 0),
                "record": g.get("record") or "",
            }
        )
    return out


def account(user):
    """The user account to store as the actor: None for a private-link holder (no account)."""
    if user is None or not user.is_authenticated or user.pk is None:
        return None
    return user


def player_side(user, match: Match) -> str:
    """'a'/'b' when ``user`` acts on ``match`` as one of its players (account or link), else ''."""
    return side_of(user, match) or ""


def _by_someone_else(result: Result, user, match: Match) -> bool:
    """:func:`others_reports`' rule for one loaded report."""
    if user.pk is not None and result.reported_by_id == user.pk:
        return False
    side = player_side(user, match)
    return not (side and result.reported_side == side)


def others_reports(match: Match, user):
    """The match's pending reports made by someone other than ``user``.

    "Someone other" means another account and, for a player, another side: a
    player who reported through their private link and again from their
    account is still the same player, and never confirms their own report.
    """
    pending = match.results.filter(state=ResultState.REPORTED)
    if user.pk is not None:
        pending = pending.exclude(reported_by=user)
    side = player_side(user, match)
    if side:
        pending = pending.exclude(reported_side=side)
    return pending


def check_result(match: Match, final: tuple[int, int] | None, games: list[dict[str, Any]] | None):
    """Validate through the one entry point; raise :class:`InvalidResult` with the problems."""
    validation = validate_result(match, final=final, games=games or None)
    if not validation.ok:
        raise InvalidResult(validation.problems)
    return validation


def _rerate(recompute: tuple[str, int] | None) -> None:
    """A rated result changed or went away: recompute its pool from its place, after the commit."""
    if recompute is not None:
        tasks.schedule_recompute(*recompute)


def _rate(match: Match, *, first: bool) -> None:
    """Ratings follow the confirmed result once it commits (:mod:`tournaments.ratings.tasks`).

    Not in the confirmation's own transaction: rating takes the pool's lock, which
    would make every confirmation of a pool wait for every other one (issue 17's
    burst). The result and the standings are never stale; the rating follows a
    moment later (at once without a broker). A first confirmation joins its pool's
    batch; a match confirmed before (a correction, a ruling) is re-rated on its own,
    which recomputes the pool from it if its rated result changed.
    """
    if first:
        tasks.schedule_new_rating(match.round.tournament)
    else:
        tasks.schedule_rating(match.pk)


def _confirm(
    match: Match,
    result: Result,
    user,
    *,
    action: str,
    reason: str = "",
    others: list[Result] | None = None,
) -> Result:
    """Make ``result`` the match's one confirmed result and the official ledger.

    ``others``: the match's other results when the caller has read them already
    (one query per action: every query is a round trip under the match's lock).
    """
    before = audit.snapshot(match)
    if others is None:
        others = list(match.results.exclude(pk=result.pk))
    replaced = [
        r.pk for r in others if r.state in (ResultState.CONFIRMED, ResultState.REPORTED)
    ]
    if replaced:
        Result.objects.filter(pk__in=replaced).update(state=ResultState.SUPERSEDED)
    confirmed = {
        "state": ResultState.CONFIRMED,
        "confirmed_by": account(user),
        "confirmed_side": "" if user is None else player_side(user, match),
        "confirmed_at": timezone.now(),
    }
    try:
        # No savepoint: a refused save ends the whole action (its transaction rolls back).
        # An update, not save(): no signal to drop the cached pages, _save_match does below.
        Result.objects.filter(pk=result.pk).update(**confirmed)
    except IntegrityError:
        raise refuse("already_confirmed_match", "duplicate") from None
    for name, value in confirmed.items():
        setattr(result, name, value)
    validation = validate_result(
        match, final=(result.score_a, result.score_b), games=result.games or None,
        kind=result.kind, winner=result.winner or None,
    )
    winner = validation.winner or ""
    had_ledger = match.result_status not in (ResultStatus.PENDING, ResultStatus.REPORTED)
    _save_match(
        match,
        score_a=result.score_a,
        score_b=result.score_b,
        winner=winner,
        result_kind=result.kind,
        result_status=ResultStatus.CONFIRMED,
    )
    if had_ledger:  # games exist only for a match confirmed before (a correction, a ruling)
        Game.objects.filter(match=match).delete()
    if result.games:
        Game.objects.bulk_create(
            Game(
                match=match,
                number=n,
                winner=g.get("winner") or "",
                kind=g.get("kind") or "",
                cube=int(g.get("cube") or 1),
                dropped=bool(g.get("dropped")),
                autodoubles=int(g.get("autodoubles") or 0),
                record=g.get("record") or "",
            )
            for n, g in enumerate(result.games, start=1)
        )
    _rate(match, first=not had_ledger)
    tournament = match.round.tournament
    audit.record_many(
        user,
        tournament,
        [(action, result, None, result, reason), ("match.result", match, before, match, reason)],
    )
    round_flow.close_when_complete(match)
    correction = action == "result.correct"
    emit("result.confirmed", tournament.pk, match=match.pk, result=result.pk, correction=correction)
    emit("standings.changed", tournament.pk, match=match.pk)
    return result


# --------------------------------------------------------------------------- result actions


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
    match = _lock_match(match_id, visible)
    _check_version(match, version)
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
    score_a, score_b = (_stored(s) for s in validation.score)
    reports = list(match.results.filter(state=ResultState.REPORTED).order_by("pk"))
    if not official:
        pending = next((r for r in reports if _by_someone_else(r, user, match)), None)
        if pending is not None:
            if (pending.score_a, pending.score_b) == (score_a, score_b):
                # Both players agree (Part 9: both report the result): that is a confirmation.
                return _confirm(
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
        return _confirm(match, result, user, action=action, reason=reason.strip())
    round_flow.announce_when_all_reported(match)
    _save_match(match, result_status=ResultStatus.REPORTED)
    audit.record_many(
        user,
        tournament,
        [
            ("result.report", result, None, result, _("replaces an earlier report") if superseded else ""),
            ("match.result", match, before, match, ""),
        ],
    )
    emit("result.reported", tournament.pk, match=match.pk, result=result.pk, side=result.reported_side)
    return result


@transaction.atomic
def confirm_result(
    match_id: int, result_id: int, user, *, version: int | None, visible: Visible | None = None
) -> Result:
    """The opponent (or an official) confirms a reported result."""
    match = _lock_match(match_id, visible)
    _check_version(match, version)
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
    return _confirm(match, result, user, action="result.confirm", others=others)


@transaction.atomic
def dispute_result(
    match_id: int, result_id: int, user, *, version: int | None, reason: str, visible: Visible | None = None
) -> Dispute:
    """A player contests a report, or a confirmed result within the organiser's window.

    The window (``Tournament.dispute_window``, minutes after the confirmation)
    is checked by the permission row ``result.dispute``; past it the refusal says
    so (``workflow.dispute_window``) rather than a bare "forbidden".
    """
    match = _lock_match(match_id, visible)
    _check_version(match, version)
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
    _save_match(match, result_status=ResultStatus.DISPUTED)
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
            _save_match(match, result_status=ResultStatus.CONFIRMED)
            audit.record(user, match.round.tournament, "match.result", match, before, match, reason)
            return disputed
        if disputed.state not in (ResultState.DISPUTED, ResultState.REPORTED):
            disputed.state = ResultState.REPORTED
        return _confirm(match, disputed, user, action="result.ruling", reason=reason)
    if outcome == Outcome.REPLACE:
        ledger = clean_games(games)
        validation = check_result(match, final, ledger)
        score_a, score_b = (_stored(s) for s in validation.score)
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
        return _confirm(match, new, user, action="result.ruling", reason=reason)
    if outcome == Outcome.VOID:
        _clear_result(match, user, reason, kind=ResultKind.PLAYED, status=ResultStatus.PENDING)
        return None
    raise refuse("outcome", "outcome")


def _lock_dispute(
    dispute_id: int, user, permission: str, *, version: int | None = None
) -> tuple[Dispute, Match]:
    """Lock the dispute and its match, then check the version read (if any) and the user's right."""
    dispute = Dispute.objects.filter(pk=dispute_id).only("match_id").first()
    if dispute is None:
        raise refuse("dispute_missing", "missing")
    match = _lock_match(dispute.match_id)
    dispute = (
        Dispute.objects.select_for_update(of=("self",)).select_related("result").get(pk=dispute_id)
    )
    _check_version(match, version)
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
    match = _lock_match(match_id)
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
        score_a, score_b = (_stored(x) for x in validation.score)
        result = Result.objects.create(
            match=match, score_a=score_a, score_b=score_b, games=rest,
            state=ResultState.REPORTED, reported_by=account(user), note=reason,
        )  # fmt: skip
        _confirm(match, result, user, action="result.correct", reason=reason)
        return
    _clear_result(match, user, reason, kind=ResultKind.PLAYED, status=ResultStatus.PENDING)
    emit("standings.changed", match.round.tournament_id, match=match.pk)


def _clear_result(
    match: Match, user, reason: str, *, kind: str, status: str, action: str = "match.result"
) -> None:
    """Take every result off a locked match (rejected, games deleted, score cleared, unrated),
    audited: a voided ruling and an annulled deciding game send it back to play
    (``PENDING``), a void pairing ends it for nobody (``VOID``, ``CONFIRMED``)."""
    before = audit.snapshot(match)
    match.results.filter(
        state__in=[ResultState.CONFIRMED, ResultState.REPORTED, ResultState.DISPUTED]
    ).update(state=ResultState.REJECTED)
    Game.objects.filter(match=match).delete()
    _save_match(match, score_a=None, score_b=None, winner="", result_kind=kind, result_status=status)
    _rerate(ratings_service.unrate(match))
    audit.record(user, match.round.tournament, action, match, before, match, reason)


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
    locked = _lock_match(match.pk)
    if locked.result_status != ResultStatus.PENDING:
        raise refuse("penalty_match_started", "state", table=locked.table or "—")
    before = audit.snapshot(locked)
    to_b = entry.pk == locked.entry_a_id
    start_a, start_b = locked.start_a + (0 if to_b else int(amount)), locked.start_b + (int(amount) if to_b else 0)
    spec = match_spec(locked)
    length = spec.length if spec.is_points else None
    if length and max(start_a, start_b) >= length:
        _record_kind(locked, user, ResultKind.FORFEIT, "b" if to_b else "a", reason)
        return
    _save_match(locked, start_a=start_a, start_b=start_b)
    audit.record(user, locked.round.tournament, "match.penalty", locked, before, locked, reason)
    emit("standings.changed", locked.round.tournament_id, match=locked.pk)


# --------------------------------------------------------------------------- results without play


def _director_lock(match_id: int, user, version: int | None) -> Match:
    """Lock the match for a director's desk action (forfeits, lateness): the desk's right."""
    match = _lock_match(match_id)
    _check_version(match, version)
    if not allowed(user, "desk.run", match.round.tournament):
        raise PermissionDenied
    if match.is_bye:
        raise refuse("bye", "bye")
    return match


def _record_kind(match: Match, user, kind: str, winner: str | None, reason: str, *,
                 played=None, games_played: int = 0) -> Result | None:
    """Write a forfeit / double forfeit / time forfeit / void on a locked match (audited)."""
    if kind == ResultKind.VOID:
        _clear_result(
            match, user, reason, kind=ResultKind.VOID, status=ResultStatus.CONFIRMED,
            action="result.forfeit",
        )
        tournament = match.round.tournament
        round_flow.close_when_complete(match)
        emit("standings.changed", tournament.pk, match=match.pk)
        return None
    verdict = kind_result(match, kind, winner, played=played, games_played=games_played)
    if not verdict.ok:
        raise InvalidResult(verdict.problems)
    match.results.filter(state__in=[ResultState.REPORTED, ResultState.DISPUTED]).update(
        state=ResultState.SUPERSEDED
    )
    result = Result.objects.create(
        match=match,
        score_a=_stored(verdict.score[0]),
        score_b=_stored(verdict.score[1]),
        kind=kind,
        winner=verdict.winner or "",
        state=ResultState.REPORTED,
        reported_by=account(user),
        note=reason,
    )
    return _confirm(match, result, user, action="result.forfeit", reason=reason)


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
    :func:`scoring.rules.result_kinds.result_for_kind`); ``played`` is the score on the
    sheet when play stopped (a time forfeit). Forfeits are never rated; a void pairing
    counts for nobody. Returns the confirmed result (None for a void match)."""
    match = _director_lock(match_id, user, version)
    if not reason.strip():
        raise refuse("kind_reason", "reason_required")
    if match.result_status == ResultStatus.DISPUTED:
        raise refuse("disputed", "disputed")
    if match.result_status == ResultStatus.CONFIRMED:
        raise refuse("kind_settled", "confirmed", table=match.table or "—")
    return _record_kind(
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
        _record_kind(match, user, ResultKind.FORFEIT, winner, note)
        return match
    before = audit.snapshot(match)
    _save_match(match, start_a=int(verdict.start[0]), start_b=int(verdict.start[1]))
    audit.record(user, tournament, "match.lateness", match, before, match, note)
    emit("standings.changed", tournament.pk, match=match.pk)
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
    _save_match(
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


# --------------------------------------------------------------------------- leaving the event

SETTLE_CHOICES = entry_status.SETTLE_CHOICES


def settle_pending(entry: Entry, user, how: str, reason: str) -> list[Match]:
    """Settle every unfinished match of ``entry`` in published rounds: a forfeit to the
    opponent, or void. Byes are voided (a leaving player keeps no bye). Runs inside the
    caller's transaction; each match is locked and audited through the one workflow.
    Registered with :func:`tournaments.entries.status.register_settler`, so a withdrawal
    from the desk, the entries page or the API settles the same way."""
    if how not in SETTLE_CHOICES:
        raise refuse("settle_choice", "choice")
    reason = reason.strip() or _("withdrawn")
    settled = []
    pending = Match.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry),
        result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
    ).select_related("round")
    for m in pending:
        if not is_public_round(m.round):
            continue  # a draft is re-paired without the player (not paired after withdrawal)
        match = _lock_match(m.pk)
        if match.is_bye or how == entry_status.SETTLE_VOID:
            _record_kind(match, user, ResultKind.VOID, None, reason)
        else:
            winner = "b" if match.entry_a_id == entry.pk else "a"
            _record_kind(match, user, ResultKind.FORFEIT, winner, reason)
        settled.append(match)
    return settled


def void_past(entry: Entry, user, reason: str) -> list[Match]:
    """Void every confirmed result of ``entry`` (a disqualification whose past results go)."""
    voided = []
    done = Match.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry), result_status=ResultStatus.CONFIRMED
    ).exclude(result_kind=ResultKind.VOID)
    for m in done:
        match = _lock_match(m.pk)
        _record_kind(match, user, ResultKind.VOID, None, reason)
        voided.append(match)
    return voided


@transaction.atomic
def remove_entry(
    entry: Entry, user, *, how: str, reason: str, past: str = "keep",
    settle: str = entry_status.SETTLE_FORFEIT,
) -> Entry:
    """Disqualify (``how="disqualified"``) or remove (``"removed"``) a player (Part 9: "дисквалификация,
    удаление с соревнований"): remaining matches forfeited (or void), past results kept or
    voided by the director's choice; withdrawn so never paired again; audited; marked."""
    if not allowed(user, "sanction.record", entry.tournament):
        raise PermissionDenied
    if not reason.strip():
        raise refuse("sanction_reason", "reason_required")
    if past not in ("keep", "void"):
        raise refuse("past_choice", "choice")
    if settle not in SETTLE_CHOICES:
        raise refuse("settle_choice", "choice")
    action = "entry.disqualify" if how == "disqualified" else "entry.remove_event"
    before = audit.snapshot(entry)
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.WITHDRAWN, removal=how)
    entry.status, entry.removal = EntryStatus.WITHDRAWN, how
    audit.record(user, entry.tournament, action, entry, before, entry, reason.strip())
    if past == "void":
        void_past(entry, user, reason.strip())
    settle_pending(entry, user, settle, reason.strip())
    return entry
