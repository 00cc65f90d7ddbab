"""One row of a round's results grid: the desk's score for one table, saved or refused alone.

The results grid page and the API's bulk results (``POST /api/rounds/<id>/results/``)
both call :func:`enter_row` for each table, so a round typed on the page and a round
sent in one call follow the same rules: a players' report with the same score is
confirmed as it stands (:func:`.reports.confirm_result`), any other score is entered
confirmed (:func:`.reports.submit_result` with ``confirm=True``) — each row in the
workflow's own transaction with its match row lock and the version the row was read
at, checked by the rules core, audited as a single entry is. A refused row writes
nothing and says why; the rows beside it are not held back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied

from scoring.models import Result, ResultState
from scoring.rules.errors import Problem
from tournaments.models import Match, ResultStatus

from .base import InvalidResult, ResultError, StaleVersion
from .problems import workflow_problem
from .reports import confirm_result, submit_result

Score = int | float


@dataclass
class RowOutcome:
    """What became of one row: saved, left as it was (the confirmed score sent back), or refused."""

    saved: bool = False
    unchanged: bool = False
    stale: bool = False  # someone saved the match after the row was read
    problems: list[Problem] = field(default_factory=list)
    result: Result | None = None

    @property
    def refused(self) -> bool:
        return bool(self.problems)


def pending_report(match: Match) -> Result | None:
    """The players' report waiting for confirmation, if any (the latest)."""
    return match.results.filter(state=ResultState.REPORTED).order_by("-reported_at", "-pk").first()


def enter_row(
    match: Match, user, final: tuple[Score, Score], *, version: int | None, reason: str = "",
    report: Result | None = None,
) -> RowOutcome:  # fmt: skip
    """Save ``final`` for ``match`` as the desk would from the grid; a refusal is the outcome's problems.

    ``report``: the pending players' report the row was shown with (None: read it now).
    ``version``: the match version the row was read at (None: the current one).
    """
    if match.result_status == ResultStatus.DISPUTED:
        return RowOutcome(problems=[workflow_problem("disputed")])
    correction = match.result_status == ResultStatus.CONFIRMED
    if correction and (match.score_a, match.score_b) == tuple(final):
        return RowOutcome(unchanged=True)  # the confirmed result, shown and sent back unchanged
    if version is not None and version != match.version:
        return RowOutcome(stale=True, problems=[StaleVersion.problem_for(version, match.version)])
    if report is None and not correction:
        report = pending_report(match)
    try:
        if not correction and report is not None and (report.score_a, report.score_b) == tuple(final):
            result = confirm_result(match.pk, report.pk, user, version=version)
        else:
            result = submit_result(
                match.pk, user, version=version, final=final, confirm=True,
                reason=reason if correction else "",
            )  # fmt: skip
    except StaleVersion as exc:
        return RowOutcome(stale=True, problems=[exc.problem])
    except InvalidResult as exc:
        return RowOutcome(problems=list(exc.problems))
    except ResultError as exc:  # disputed, a correction without its reason…
        return RowOutcome(problems=[exc.problem])
    except PermissionDenied:
        return RowOutcome(problems=[workflow_problem("forbidden")])
    return RowOutcome(saved=True, result=result)
