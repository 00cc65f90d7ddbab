"""Reporting, confirming, disputing a result and appealing a ruling through an entry's private link (no account).

The same forms, checks and services as the signed-in player's pages
(:func:`scoring.entry.views.match_result`, ``confirm``, ``dispute``), acting as the
entry's :class:`~tournaments.access.private_links.LinkHolder`: the permissions table
decides what the holder may do, exactly as for the player's own account, and
the reporter never confirms their own report. Anything the link may not see
(another player's match, a draft round) does not exist here (404).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import workflow
from scoring.workflow.problems import workflow_message
from tournaments.access import private_links
from tournaments.access.permissions import allowed
from tournaments.links.private_views import holder_and_match
from tournaments.models import Match, ResultStatus

from . import appeals
from .forms import DisputeForm, ResultEntry
from .views import appeal_refused_page, confirm_posted, dispute_posted, entry_context, submit

TEMPLATE = "scoring/entry/private/match.html"


def _links(token: str, match: Match) -> dict:
    """Where the shared results list posts its confirm/dispute forms on a private page."""
    kwargs = {"token": token, "match_id": match.pk}
    return {
        "token": token,
        "confirm_url": reverse("private-confirm", kwargs=kwargs),
        "dispute_url": reverse("private-dispute", kwargs=kwargs),
    }


def match_page(request, token: str, match_id: int) -> HttpResponse:
    """The match as its player sees it through the link: report, or confirm/dispute a report."""
    holder, match = holder_and_match(token, match_id)
    tournament = match.round.tournament
    can_report = allowed(holder, "result.report", match) and match.result_status in (
        ResultStatus.PENDING,
        ResultStatus.REPORTED,
    )
    if can_report and request.method == "GET":
        can_report = not workflow.others_reports(match, holder).exists()
    extra = {"can_report": True, "holder": holder, **_links(token, match)}
    if request.method == "POST":
        if not can_report:
            raise PermissionDenied
        response = submit(
            request, tournament, match, confirm=False, template=TEMPLATE, ctx=extra, user=holder
        )
        if response is None:
            return redirect("private-match", token=token, match_id=match.pk)
        return response
    extra["can_report"] = can_report
    entry = ResultEntry(match) if can_report else None
    return render(
        request,
        TEMPLATE,
        entry_context(
            request,
            tournament,
            match,
            entry,
            user=holder,
            dispute_form=DisputeForm(initial={"version": match.version}),
            **extra,
        ),
    )


@require_POST
def confirm(request, token: str, match_id: int) -> HttpResponse:
    """The opponent confirms a reported result through their link."""
    holder, match = holder_and_match(token, match_id)
    confirm_posted(request, match, holder)
    return redirect("private-match", token=token, match_id=match.pk)


@require_POST
def appeal(request, token: str, match_id: int) -> HttpResponse:
    """A player appeals the director's ruling to the jury through their link: no login.

    The same service and permission row as the signed-in appeal
    (:func:`scoring.entry.views.appeal`), acting as the link holder; the audit
    names the player by the side stored on the dispute. A link the organiser has
    replaced since the page was opened says so, with the typed text kept (410).
    """
    if private_links.was_reissued(token):
        refused = appeals.Refused(
            workflow_message("link_replaced"), request.POST.get("reason", ""), None, 410
        )
        return render(request, "scoring/entry/private/link_replaced.html", {"refused": refused}, status=410)
    holder, match = holder_and_match(token, match_id)
    dispute, refused = appeals.appeal_posted(request, match, holder)
    if refused is None:
        messages.success(request, _("Appeal lodged; the jury will decide."))
        url = reverse("private-match", kwargs={"token": token, "match_id": match.pk})
        return redirect(f"{url}#dispute-{dispute.pk}")
    match.refresh_from_db()
    return appeal_refused_page(
        request, match.round.tournament, match, holder, refused, TEMPLATE, holder=holder, **_links(token, match)
    )


@require_POST
def dispute(request, token: str, match_id: int) -> HttpResponse:
    """A player contests a result through their link: the director will rule."""
    holder, match = holder_and_match(token, match_id)
    dispute_posted(request, match, holder)
    return redirect("private-match", token=token, match_id=match.pk)
