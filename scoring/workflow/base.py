"""The ground every result action stands on: its refusals, the locked match, the version check.

Every action runs in one transaction that first locks the match row
(``select_for_update``, :func:`lock_match`) and then checks the version the user saw
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

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import IntegrityError
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from scoring.models import (
    Result,
    ResultState,
)
from scoring.rules.errors import Problem
from tournaments import audit
from tournaments.access.permissions import (
    side_of,
)
from tournaments.access.visibility import is_public_round
from tournaments.cache import complete_at_version, invalidate_results
from tournaments.events import emit
from tournaments.models import (
    Game,
    Match,
    ResultStatus,
)
from tournaments.ratings import service as ratings_service
from tournaments.ratings import tasks
from tournaments.rounds import flow as round_flow
from tournaments.validation import (
    validate_result,
)
from zarik.i18n import current_language

from .problems import workflow_problem


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


def lock_match(
    match_id: int, visible: Visible | None = None, *, scheduled_draft: bool = False
) -> Match:
    """The match row, locked until the transaction ends (PostgreSQL; SQLite serialises writes).

    The one draft-round guard of the workflow: every report, confirmation,
    dispute, ruling and appeal starts here, so nothing is ever done on a match
    of a round that is not published (:mod:`tournaments.access.visibility`). With
    ``visible``, a missing, draft or unseen match is a 404, as for a read.
    ``scheduled_draft``: the one exception — a withdrawal settling a fixed schedule's
    draft round (:func:`.withdrawals.settle_pending`; such a draft is never paired again).
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
    if not is_public_round(match.round) and not scheduled_draft:
        raise refuse("draft_round", "draft", round=match.round.number)
    return match


def check_version(match: Match, version: int | None) -> None:
    if version is not None and int(version) != match.version:
        raise StaleVersion(StaleVersion.problem_for(version, match.version))


def save_match(match: Match, **fields: Any) -> None:
    """Write result fields and move the version on, guarded by the version we read."""
    seen = match.version
    # The round's public pairings show each table's state as a badge (issue 44: reported,
    # confirmed, disputed at a glance), so a status that moves is shown; only a write that
    # leaves the status and everything else as they were keeps them cached. (Issue 17 kept
    # them through a report; the rows are remembered by content, so a rebuild after a report
    # renders one row again.)
    shown = bool(set(fields) - {"result_status"}) or fields.get("result_status", match.result_status) != match.result_status
    fields["version"] = seen + 1
    fields["updated_at"] = timezone.now()
    updated = Match.objects.filter(pk=match.pk, version=seen).update(**fields)
    if updated != 1:  # only possible without row locks (SQLite): the optimistic check
        raise StaleVersion(workflow_problem("stale_same_moment"))
    for name, value in fields.items():
        setattr(match, name, value)
    # An update() sends no signal: the standings (and this round's pages if shown) go now.
    invalidate_results(match.round.tournament_id, match.round_id, shown=shown)


def stored_score(value: Any) -> int | Decimal:
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


def by_someone_else(result: Result, user, match: Match) -> bool:
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


def make_confirmed(
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
        # An update, not save(): no signal to drop the cached pages, save_match does below.
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
    save_match(
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
    emit("result.confirmed", tournament.pk, match=match, result=result.pk, correction=correction)
    emit("standings.changed", tournament.pk, match=match)
    return result




def clear_result(
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
    save_match(match, score_a=None, score_b=None, winner="", result_kind=kind, result_status=status)
    _rerate(ratings_service.unrate(match))
    audit.record(user, match.round.tournament, action, match, before, match, reason)
    round_flow.reopen_for(match, user)


def refuse_when_the_cup_moved_on(match: Match, winner: str | None, field: str = "outcome") -> None:
    """In a cup the winner of a match takes the next slot of the bracket (book, Part 9: the
    Olympic system). Once a later stage seats this match's players, a ruling or a correction
    that changes who went through (a void: ``winner`` None, or a score with the other winner)
    would leave that stage with the wrong player and the bracket's places contradicting the
    matches played: refused, naming who has moved on. Keeping the winner is always possible."""
    if match.round.tournament.system != "knockout" or match.entry_b_id is None:
        return
    if winner is not None and winner == match.winner:
        return
    players = (match.entry_a_id, match.entry_b_id)
    later = Match.objects.filter(
        round__tournament_id=match.round.tournament_id, round__number__gt=match.round.number,
    ).filter(Q(entry_a_id__in=players) | Q(entry_b_id__in=players))  # fmt: skip
    moved = sorted({e.player.full_name for m in later.select_related("entry_a__player", "entry_b__player")
                    for e in (m.entry_a, m.entry_b) if e is not None and e.pk in players})  # fmt: skip
    if moved:
        raise refuse("knockout_moved_on", field, names=", ".join(moved))
