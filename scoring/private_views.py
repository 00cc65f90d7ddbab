"""Reporting, confirming and disputing a result through an entry's private link (no account).

The same forms, checks and services as the signed-in player's pages
(:func:`scoring.views.match_result`, ``confirm``, ``dispute``), acting as the
entry's :class:`~tournaments.private_links.LinkHolder`: the permissions table
decides what the holder may do, exactly as for the player's own account, and
the reporter never confirms their own report. Anything the link may not see
(another player's match, a draft round) does not exist here (404).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Match, ResultStatus
from tournaments.permissions import allowed
from tournaments.private_views import holder_or_404
from tournaments.visibility import is_public_round

from . import services
from .forms import DisputeForm, ResultEntry
from .models import ResultState
from .views import entry_context, submit
from .workflow_problems import workflow_message

TEMPLATE = "private/match.html"


def _holder_and_match(token: str, match_id: int):
    """The link holder and one of their own matches in a published or finished round."""
    holder = holder_or_404(token)
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament", "round__section", "entry_a__player", "entry_b__player"
        ),
        pk=match_id,
        round__tournament_id=holder.entry.tournament_id,
    )
    if not is_public_round(match.round) or not allowed(holder, "match.see", match):
        raise Http404
    return holder, match


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
    holder, match = _holder_and_match(token, match_id)
    tournament = match.round.tournament
    can_report = allowed(holder, "result.report", match) and match.result_status in (
        ResultStatus.PENDING,
        ResultStatus.REPORTED,
    )
    if can_report and request.method == "GET":
        can_report = not services.others_reports(match, holder).exists()
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


def _version(request) -> int | None:
    try:
        return int(request.POST.get("version"))
    except (TypeError, ValueError):
        return None


def _result(request, match):
    try:
        result_id = int(request.POST.get("result") or 0)
    except ValueError:
        result_id = 0
    return get_object_or_404(match.results, pk=result_id)


@require_POST
def confirm(request, token: str, match_id: int) -> HttpResponse:
    """The opponent confirms a reported result through their link."""
    holder, match = _holder_and_match(token, match_id)
    result = _result(request, match)
    if not allowed(holder, "result.confirm", result) and result.state == ResultState.REPORTED:
        raise PermissionDenied
    try:
        services.confirm_result(match.pk, result.pk, holder, version=_version(request))
    except services.ResultError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Result confirmed."))
    return redirect("private-match", token=token, match_id=match.pk)


@require_POST
def dispute(request, token: str, match_id: int) -> HttpResponse:
    """A player contests a result through their link: the director will rule."""
    holder, match = _holder_and_match(token, match_id)
    result = _result(request, match)
    if not allowed(holder, "result.dispute", result):
        raise PermissionDenied
    form = DisputeForm(request.POST)
    if not form.is_valid():
        messages.error(request, workflow_message("dispute_reason"))
        return redirect("private-match", token=token, match_id=match.pk)
    try:
        services.dispute_result(
            match.pk,
            result.pk,
            holder,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
        )
    except services.ResultError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Dispute raised; the director will rule on it."))
    return redirect("private-match", token=token, match_id=match.pk)
