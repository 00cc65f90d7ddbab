"""Analysis pages: a match's analysis, the event's PR table (with its progress and the
organiser's settings and bulk runs), and a player's choice to show their PR."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Player
from tournaments.access.permissions import allowed, require, tournament_view
from tournaments.access.visibility import can_see_round
from tournaments.links.private_views import holder_and_match
from tournaments.models import Match, Round
from zarik import htmx
from zarik.i18n import current_language

from . import services
from .models import AnalysisState, Depth
from .templatetags.analysis import round_progress_context


def _match(request, tournament, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "entry_a__player", "entry_b__player"),
        pk=match_id, round__tournament=tournament,
    )
    if not can_see_round(request.user, match.round):
        raise Http404
    return match


@tournament_view("tournament.view")
def match_analysis(request, tournament, match_id: int) -> HttpResponse:
    """Both players' PR (as far as the reader may see it), per game, the worst decisions."""
    match = _match(request, tournament, match_id)
    summary = services.match_summary(match, request.user, current_language())
    viewer_url = reverse("record-viewer", kwargs={"slug": tournament.slug, "match_id": match.pk})
    return render(request, "scoring/analysis/match.html", {
        "tournament": tournament, "match": match, "a": summary, "viewer_url": viewer_url,
        "can_run": allowed(request.user, "analysis.run", match),
        "busy": summary["state"] in (AnalysisState.QUEUED, AnalysisState.RUNNING),
    })


@require_POST
@tournament_view("tournament.view")
def match_analysis_run(request, tournament, match_id: int) -> HttpResponse:
    """Queue or re-run the analysis (officials; audited)."""
    match = _match(request, tournament, match_id)
    require(request.user, "analysis.run", match)
    row = services.request(match, request.user, reason="page")
    if row.state == AnalysisState.FAILED:
        messages.error(request, services.problem_of(row).message(current_language()))
    else:
        messages.success(request, _("The analysis is queued."))
    return redirect("analysis-match", slug=tournament.slug, match_id=match.pk)


def private_match_analysis(request, token: str, match_id: int) -> HttpResponse:
    """The same page under a player's private link (no account): their own PR is theirs to see."""
    holder, match = holder_and_match(token, match_id)
    tournament = match.round.tournament
    summary = services.match_summary(match, holder, current_language())
    viewer_url = reverse("private-record-viewer", kwargs={"token": token, "match_id": match.pk})
    return render(request, "scoring/analysis/match.html", {
        "tournament": tournament, "match": match, "a": summary, "viewer_url": viewer_url,
        "can_run": False, "busy": summary["state"] in (AnalysisState.QUEUED, AnalysisState.RUNNING),
    })


def _table_context(request, tournament) -> dict[str, Any]:
    language = current_language()
    table = services.pr_table(tournament, request.user, language)
    busy = table.counts.get(AnalysisState.QUEUED, 0) + table.counts.get(AnalysisState.RUNNING, 0)
    total = sum(table.counts.values())
    return {
        "tournament": tournament, "table": table, "busy": busy, "total": total,
        "done_percent": int(100 * (total - busy) / total) if total else 100,
        "small": services.report.SMALL_SAMPLE,
        "engine": tournament.variant in services.ENGINE_VARIANTS,
        "available": services.available(),
    }


@tournament_view("tournament.view")
def pr_table(request, tournament) -> HttpResponse:
    """The event's PR table: PR over all decisions, best match, per round; progress of the queue."""
    ctx = _table_context(request, tournament)
    if htmx.is_htmx(request):
        return htmx.vary(render(request, "scoring/analysis/_table.html", ctx))
    editing = allowed(request.user, "tournament.edit", tournament)
    ctx.update({
        "page": "analysis",
        "can_edit": editing,
        "can_run": allowed(request.user, "tournament.officiate", tournament),
        "settings": services.settings_for(tournament),
        "depths": Depth.choices,
        "rounds": list(Round.objects.filter(tournament=tournament).order_by("number")) if editing else [],
    })
    return render(request, "scoring/analysis/table.html", ctx)


@require_POST
@tournament_view("tournament.edit")
def analysis_settings(request, tournament) -> HttpResponse:
    """The organiser's depth (0-ply for a club night, 2-ply standard) and whether PR is public."""
    try:
        plies = int(request.POST.get("plies", ""))
    except ValueError:
        plies = -1
    if plies not in Depth.values:
        messages.error(request, _("Choose the depth: 0-ply or 2-ply."))
    else:
        services.save_settings(tournament, request.user, plies=plies, public=request.POST.get("public") == "on")
        messages.success(request, _("The analysis settings are saved."))
    return redirect("analysis-table", slug=tournament.slug)


@require_http_methods(["GET", "POST"])
@tournament_view("tournament.officiate")
def round_analyse(request, tournament, round_id: int) -> HttpResponse:
    """POST: queue every match of a round that has a record (fairly shared with other events),
    back to the round's bulk-upload page when asked from there. GET: the round's progress
    block, which that page polls while analyses are queued or running."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), pk=round_id, tournament=tournament)
    if request.method == "GET":
        if not htmx.is_htmx(request):  # the address opened: the page that shows the progress
            return htmx.vary(redirect("round-records", slug=tournament.slug, round_id=rnd.pk))
        return htmx.vary(render(request, "scoring/analysis/_round_progress.html", round_progress_context(request, rnd)))
    bulk = services.request_round(rnd, request.user)
    messages.success(request, _("Round %(round)s: %(queued)s matches queued, %(failed)s cannot be analysed, %(skipped)s have no record.") % {
        "round": rnd.number, "queued": bulk.queued, "failed": bulk.failed, "skipped": bulk.skipped,
    })
    if request.POST.get("back") == "records":
        return redirect("round-records", slug=tournament.slug, round_id=rnd.pk)
    return redirect("analysis-table", slug=tournament.slug)


@require_POST
@login_required
def pr_visibility(request, player_id: int) -> HttpResponse:
    """A player shows or hides their own PR (everywhere; an official still sees it)."""
    player = get_object_or_404(Player, pk=player_id)
    if player.user_id != request.user.pk:
        raise PermissionDenied
    public = request.POST.get("public") == "on"
    services.set_choice(player, public, request.user)
    messages.success(request, _("Your PR is now public.") if public else _("Your PR is now shown only to you and the officials."))
    return redirect(request.POST.get("next") or reverse("player-profile", kwargs={"player_id": player.pk}))
