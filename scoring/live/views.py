"""Live board pages: the recorder (private link or account), the public board, the hall's
feature slot, the referee's appointment and the JSON API — all through :mod:`.services`.

Watchers poll (short polling, decided with the scale work: gunicorn's sync workers would
hold one worker per watcher on a server-sent stream). Every poll carries the recording's
ETag (its number of steps), so an unchanged board is a 304 read from one row.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from scoring.rules.errors import Problem
from scoring.viewer.svg import board_svg, column_points, describe
from tournaments.access.permissions import allowed, tournament_view
from tournaments.access.visibility import can_see_round
from tournaments.links.private_views import holder_and_match
from tournaments.models import Match
from zarik import htmx
from zarik.i18n import current_language

from . import services
from .models import LiveRecording

POLL_SECONDS = 2


def _match(request, tournament, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "entry_a__player", "entry_b__player"),
        pk=match_id, round__tournament=tournament,
    )
    if match.entry_b_id is None or not can_see_round(request.user, match.round):
        raise Http404
    return match


def _problems(problems: list[Problem]) -> list[dict[str, Any]]:
    language = current_language()
    return [{"code": p.code, "message": p.message(language)} for p in problems]


# --------------------------------------------------------------------------- the recorder


def _recorder(request, match: Match, *, step_url: str, user) -> HttpResponse:
    rec = services.recording_for(match)
    if not services.may_record(user, match, rec):
        raise PermissionDenied
    tournament = match.round.tournament
    return render(request, "scoring/live/recorder.html", {
        "tournament": tournament, "match": match, "rec": rec, "state": rec.snapshot,
        "step_url": step_url, "poll_seconds": POLL_SECONDS,
        "state_url": reverse("live-state", kwargs={"slug": tournament.slug, "match_id": match.pk}),
        "public_url": reverse("live-match", kwargs={"slug": tournament.slug, "match_id": match.pk}),
        "rows": column_points(rec.snapshot.get("geometry", "short")),
    })


def private_recorder(request, token: str, match_id: int) -> HttpResponse:
    holder, match = holder_and_match(token, match_id)
    if match.entry_b_id is None:
        raise Http404
    url = reverse("private-live-step", kwargs={"token": token, "match_id": match.pk})
    return _recorder(request, match, step_url=url, user=holder)


@login_required
@tournament_view("tournament.view")
def recorder(request, tournament, match_id: int) -> HttpResponse:
    match = _match(request, tournament, match_id)
    url = reverse("live-step", kwargs={"slug": tournament.slug, "match_id": match.pk})
    return _recorder(request, match, step_url=url, user=request.user)


def _step(request, match: Match, user) -> JsonResponse:
    try:
        body = json.loads(request.body or b"{}")
        seq = int(body.get("seq"))
    except (ValueError, TypeError, AttributeError):
        problem = services.LIVE.problem("bad_step", reason="the body must be JSON with seq, key and step")
        return JsonResponse({"ok": False, "problems": _problems([problem])}, status=400)
    try:
        answer = services.record_step(match, user, seq=seq, key=body.get("key", ""), step=body.get("step"))
    except services.StepRefused as exc:
        rec = LiveRecording.objects.get(match=match)
        return JsonResponse(
            {"ok": False, "problems": _problems(exc.problems), "expected": exc.expected, "state": rec.snapshot},
            status=exc.status,
        )
    except PermissionDenied:
        problem = services.LIVE.problem("not_recorder")
        return JsonResponse({"ok": False, "problems": _problems([problem])}, status=403)
    rec = LiveRecording.objects.get(match=match)
    return JsonResponse({
        "ok": True, "seq": answer.step.seq, "duplicate": answer.duplicate, "state": rec.snapshot,
        "finished": rec.state == LiveRecording.FINISHED,
        "problems": _problems([Problem.from_data(p) for p in rec.problem or []]),
    })


@require_POST
def private_step(request, token: str, match_id: int) -> JsonResponse:
    holder, match = holder_and_match(token, match_id)
    return _step(request, match, holder)


@require_POST
@tournament_view("tournament.view")
def step(request, tournament, match_id: int) -> JsonResponse:
    match = _match(request, tournament, match_id)
    if not request.user.is_authenticated:
        raise PermissionDenied
    return _step(request, match, request.user)


# --------------------------------------------------------------------------- watchers


def _etag(request, slug: str, match_id: int) -> str | None:
    row = LiveRecording.objects.filter(match_id=match_id, tournament__slug=slug).values_list("pk", "seq").first()
    return None if row is None else f"live-{row[0]}-{row[1]}-{current_language()}"


def _no_cache(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-cache"
    return response


def board_context(rec: LiveRecording, match: Match, language: str) -> dict[str, Any]:
    state = services.state_of(rec, match)
    snap = rec.snapshot
    names = snap.get("names", {})
    svg = ""
    if state.position is not None:
        owner = state.cube.owner
        svg = mark_safe(board_svg(  # noqa: S308 - our own SVG writer escapes every text it places
            state.position, dice=state.dice, dice_side=state.side_on_roll, cube=state.cube.value,
            cube_owner=owner, title=_("Live board"), description=describe(state.position, language),
        ))
    return {"rec": rec, "snap": snap, "names": names, "svg": svg, "match": match,
            "etag": f"{rec.pk}-{rec.seq}"}


@condition(etag_func=_etag)
@tournament_view("tournament.view")
def board(request, tournament, match_id: int) -> HttpResponse:
    """The board fragment the public page polls (a 304 while no step was recorded); its address
    opened directly is the match's live page (a bare fragment has no language or title)."""
    match = _match(request, tournament, match_id)
    if not htmx.is_htmx(request):
        return redirect("live-match", slug=tournament.slug, match_id=match.pk)
    rec = get_object_or_404(LiveRecording, match=match)
    ctx = board_context(rec, match, current_language())
    return htmx.vary(_no_cache(render(request, "scoring/live/_board.html", {**ctx, "tournament": tournament})))


@tournament_view("tournament.view")
def live_page(request, tournament, match_id: int) -> HttpResponse:
    match = _match(request, tournament, match_id)
    rec = LiveRecording.objects.filter(match=match).first()
    ctx = board_context(rec, match, current_language()) if rec else {"match": match}
    return render(request, "scoring/live/match.html", {
        **ctx, "tournament": tournament, "poll_seconds": POLL_SECONDS,
        "can_appoint": allowed(request.user, "live.appoint", match),
        "can_record": services.may_record(request.user, match, rec),
    })


@condition(etag_func=_etag)
@tournament_view("tournament.view")
def state_json(request, tournament, match_id: int) -> JsonResponse:
    """The API: the live board as JSON (score, cube, board, last play, Position/Match IDs)."""
    match = _match(request, tournament, match_id)
    rec = get_object_or_404(LiveRecording, match=match)
    return _no_cache(JsonResponse(services.watcher_state(rec)))


def _feature_etag(request, slug: str) -> str:
    return services.feature_etag_by_slug(slug) + f"-{current_language()}"


@condition(etag_func=_feature_etag)
@tournament_view("tournament.view")
def feature(request, tournament) -> HttpResponse:
    """The hall display's feature-table slot: every featured recording's board; its address
    opened directly is the hall display holding it."""
    if not htmx.is_htmx(request):
        return redirect("hall", slug=tournament.slug)
    language = current_language()
    boards = [board_context(rec, rec.match, language) for rec in services.featured(tournament)]
    return htmx.vary(_no_cache(render(request, "scoring/live/_feature.html", {"boards": boards, "tournament": tournament})))


# --------------------------------------------------------------------------- the referee


@login_required
@tournament_view("tournament.view")
def appoint(request, tournament, match_id: int) -> HttpResponse:
    """The referee names a feature table's recorder (an account) and puts it on the hall display."""
    match = _match(request, tournament, match_id)
    if not allowed(request.user, "live.appoint", match):
        raise PermissionDenied
    error = ""
    if request.method == "POST":
        username = request.POST.get("recorder", "").strip()
        recorder_user = None
        if username:
            recorder_user = get_user_model().objects.filter(username=username).first()
            if recorder_user is None:
                error = _("No account is called “%(name)s”.") % {"name": username}
        if not error:
            services.appoint(match, request.user, recorder=recorder_user, featured=bool(request.POST.get("featured")))
            return redirect("live-match", slug=tournament.slug, match_id=match.pk)
    rec = services.recording_for(match)
    return render(request, "scoring/live/appoint.html", {
        "tournament": tournament, "match": match, "rec": rec, "error": error,
        "typed": request.POST.get("recorder", rec.recorder.username if rec.recorder else ""),
    })
