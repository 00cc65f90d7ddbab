"""The results grid: a whole round's results typed from the score sheets, table by table.

Like Swiss-Manager's result entry: one row per table with the two players and
two score cells, in table order, so the desk types ``5 Tab 3 Tab 2 Tab 5 …`` and
presses Enter once. Every filled row goes through
:func:`scoring.workflow.grid.enter_row` — the same service the API's bulk results call,
which runs the SAME workflow as the referee's single-result page (the match row lock and
the version each row was shown with; a players' report with the same score is confirmed
as it is). Rows are saved one by one, each in its own transaction: a refused row keeps
what was typed and says why next to it, the rows that were fine are saved, and the page
says how many of each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.models import Dispute, DisputeState
from scoring.workflow import grid
from scoring.workflow.problems import workflow_message
from tournaments.access.permissions import allowed, login_first, tournament_view
from tournaments.access.visibility import is_public_round
from tournaments.models import Match, ResultStatus, Round, RoundStatus
from tournaments.rounds import flow as round_flow
from tournaments.standings import format_score
from zarik.i18n import current_language

from .forms import posted_int
from .grid_problems import GRID


@dataclass
class GridRow:
    """One table of the round as the grid shows it: what is in the cells and what went wrong."""

    match: Match
    a: str = ""
    b: str = ""
    version: int = 0
    report: object = None  # the players' pending report, if any: shown beside the cells, never in them
    confirm: bool = False  # the referee ticked "confirm the players' report"
    dispute: int | None = None  # the open dispute's id: the row links to its page
    errors: list[str] = field(default_factory=list)
    saved: bool = False
    stale: bool = False  # someone saved the match after the grid was shown

    @property
    def prefix(self) -> str:
        return f"m{self.match.pk}"


def _matches(rnd: Round):
    return (
        rnd.matches.filter(entry_b__isnull=False)
        .select_related("round__tournament", "entry_a__player", "entry_b__player")
        .order_by("table", "pk")
    )


def _shown(match: Match) -> GridRow:
    """The row as stored: the confirmed score in the cells, else empty cells.

    A players' pending report is shown beside the cells with its own "confirm" box, not
    typed into them: a grid sent back as shown must not confirm what nobody confirmed.
    """
    row = GridRow(match, version=match.version, report=grid.pending_report(match))
    if match.score_a is not None and match.score_b is not None:
        row.a, row.b = format_score(float(match.score_a)), format_score(float(match.score_b))
    return row


def _score(text: str, table) -> tuple[int | Decimal | None, str | None]:
    """A typed score: whole, or a half (2.5, 2,5, 2½) where a drawn game is worth ½."""
    typed = text.strip().replace(",", ".").replace("½", ".5")
    if typed.startswith("."):
        typed = "0" + typed
    try:
        number = Decimal(typed)
        value = int(number) if number == number.to_integral_value() else number
        if number * 2 != (number * 2).to_integral_value():
            value = -1
    except (InvalidOperation, ValueError):
        value = -1
    if value < 0 or value > 999:
        return None, GRID.problem("not_a_score", table=table, typed=text).message(
            current_language()
        )
    return value, None


def _save_row(row: GridRow, user, final: tuple[int, int], posted: int | None, reason: str) -> None:
    """Save one row through the grid's service; a refusal becomes the row's error, never an exception."""
    outcome = grid.enter_row(row.match, user, final, version=posted, reason=reason, report=row.report)
    names = row.match.side_names(current_language()) if outcome.refused else None
    row.errors.extend(p.message(current_language(), names) for p in outcome.problems)
    row.stale = outcome.stale
    row.saved = outcome.saved


def _submitted(request, rnd: Round) -> tuple[list[GridRow], int, bool]:
    """Read every row of the posted grid and save the filled ones; (rows, saved, any stale)."""
    reason = (request.POST.get("reason") or "").strip()
    rows, saved, stale = [], 0, False
    for match in _matches(rnd):
        shown = _shown(match)
        a = (request.POST.get(f"{shown.prefix}-a") or "").strip()
        b = (request.POST.get(f"{shown.prefix}-b") or "").strip()
        posted = posted_int(request.POST.get(f"{shown.prefix}-version"))
        row = GridRow(match, a, b, posted if posted is not None else match.version, shown.report)
        row.confirm = bool(request.POST.get(f"{shown.prefix}-confirm")) and shown.report is not None
        rows.append(row)
        if match.result_status == ResultStatus.DISPUTED:
            continue  # the dispute page decides it (the row links there); the grid leaves it be
        if row.confirm and not a and not b:
            a, b = row.a, row.b = (
                format_score(float(shown.report.score_a)), format_score(float(shown.report.score_b))
            )
        if not a and not b:
            continue  # an untouched row: nothing to save
        if not (a and b):
            row.errors.append(workflow_message("both_scores"))
            continue
        score_a, error_a = _score(a, match.table)
        score_b, error_b = _score(b, match.table)
        row.errors.extend(e for e in (error_a, error_b) if e)
        if row.errors:
            continue
        _save_row(row, request.user, (score_a, score_b), posted, reason)
        saved += row.saved
        if row.stale:  # saving again is now a knowing decision: the row carries today's version
            match.refresh_from_db()
            row.version = match.version
            stale = True
    for i, row in enumerate(rows):  # saved rows show what is stored now
        if row.saved:
            row.match.refresh_from_db()
            rows[i] = _shown(row.match)
            rows[i].saved = True
    return rows, saved, stale


def round_end(user, rnd: Round) -> dict | None:
    """What the grid offers once the last result is in: the next step, not a trip to the desk.

    The last confirmation closes the round itself (:func:`round_flow.close_when_complete`);
    a round complete but still open (the after-commit close failed, or it was reopened)
    gets the desk's own close button, posting to the same service.
    """
    rnd.refresh_from_db(fields=["status"])
    tournament = rnd.tournament
    if rnd.status == RoundStatus.FINISHED:
        return {"finished": True, "may_pair": allowed(user, "round.manage", tournament)}
    if rnd.status == RoundStatus.PUBLISHED and round_flow.round_complete(rnd):
        return {"finished": False, "may_close": allowed(user, "desk.run", tournament)}
    return None


@login_first
@tournament_view("result.enter")
def results_grid(request, tournament, round_id: int) -> HttpResponse:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament", "section"), pk=round_id, tournament=tournament
    )
    open_for_results = is_public_round(rnd) and rnd.status != RoundStatus.DRAFT
    status = 200
    if request.method == "POST" and open_for_results:
        rows, saved, stale = _submitted(request, rnd)
        refused = sum(1 for r in rows if r.errors)
        if not refused:
            messages.success(request, _("%(saved)d saved.") % {"saved": saved})
            return redirect("manage-results", slug=tournament.slug, round_id=rnd.pk)
        messages.warning(
            request,
            _("%(saved)d saved, %(refused)d refused.") % {"saved": saved, "refused": refused},
        )
        status = 409 if stale else 200
    else:
        rows = [_shown(m) for m in _matches(rnd)]
    disputes = dict(
        Dispute.objects.filter(match__round=rnd, state=DisputeState.OPEN).values_list("match_id", "pk")
    )
    for row in rows:
        row.dispute = disputes.get(row.match.pk)
    first_empty = next((r.prefix for r in rows if r.errors), None) or next(
        (r.prefix for r in rows if not r.a), None
    )
    return render(
        request,
        "scoring/entry/grid.html",
        {
            "tournament": tournament,
            "round": rnd,
            "rows": rows,
            "open_for_results": open_for_results,
            "focus": first_empty,
            "reason": request.POST.get("reason", "") if request.method == "POST" else "",
            "corrections": any(r.match.result_status == ResultStatus.CONFIRMED for r in rows),
            "round_end": round_end(request.user, rnd),
        },
        status=status,
    )
