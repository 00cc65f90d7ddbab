"""Organiser pages: the rounds, a draft with its explanation, changes by hand, publish.

Publishing asks first (GET ``manage-round-publish`` shows "publish round N: M
tables; players will see it", its form posts); a publication can be withdrawn
(``manage-round-unpublish``, with a reason, audited) while no result exists on
the round. The whole round's results grid is ``manage-results`` (scoring app).

Permissions (checked on the server for every request):

* anonymous visitors are sent to the login page;
* the tournament's organisers (and superusers) may do everything;
* its referees and jury may *look* at the rounds and drafts (they prepare the
  hall and the result slips) but cannot generate, change, publish or delete —
  those requests are a 403;
* anybody else gets the decorator's answer: 404 for an unreleased tournament,
  403 for a released one.

Every refusal of the pairing manager is shown on the page in the current
language, with the form still holding what the organiser typed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import team_match as team_blocks
from tournaments.access.permissions import allowed, tournament_view
from tournaments.jobs import progress as jobs
from tournaments.models import Entry, Round, RoundStatus, Tournament
from tournaments.standings_service import load_event
from zarik.i18n import current_language

from . import generation as round_generation
from . import pairing_manager as pm
from .forms import GenerateRoundForm, PairingChangeForm

OFFICIATE = "tournament.officiate"  # actions of the permissions table
MANAGE = "round.manage"


def _view(action: str):
    def decorator(view):
        return login_required(tournament_view(action)(view))

    return decorator


def _add_problems(form, problems) -> None:
    lang = current_language()
    for p in problems:
        form.add_error(None, p.message(lang))


# ---------------------------------------------------------------------------------------------
# the list of rounds and "generate"
# ---------------------------------------------------------------------------------------------


def _rounds_context(tournament: Tournament, form: GenerateRoundForm | None, user) -> dict:
    lang = current_language()
    sections = list(tournament.sections.all()) or [None]
    groups = []
    for section in sections:
        rounds = list(pm.rounds_of(tournament, section))
        for r in rounds:
            r.open_results = pm.unconfirmed_matches(r).count()
            r.table_count = r.matches.count()
        hard = pm.hard_blockers(tournament, section)
        soft = pm.blockers(tournament, section)
        groups.append(
            {
                "section": section,
                "rounds": rounds,
                "hard": [p.message(lang) for p in hard if p.code != "pairing.section_required"],
                "soft": [p.message(lang) for p in soft],
            }
        )
    return {
        "tournament": tournament,
        "groups": groups,
        "form": form,
        "can_edit": allowed(user, "round.manage", tournament),
        "generate_label": _generate_label(tournament),
        # Scheveningen: the team match's score (the main result) and the line-ups' problems.
        "team": team_blocks.page_blocks(load_event(tournament), lang) if team_blocks.is_team_event(tournament) else {},
    }


def _generate_label(tournament: Tournament) -> str:
    if tournament.system in ("round_robin", "scheveningen"):
        return _("Draw the whole schedule")
    if tournament.system == "knockout":
        return _("Draw the bracket or the next stage")
    return _("Pair the next round")


@_view(OFFICIATE)
def rounds(request, tournament: Tournament):
    form = GenerateRoundForm(tournament) if allowed(request.user, "round.manage", tournament) else None
    return render(request, "rounds/rounds.html", _rounds_context(tournament, form, request.user))


@_view(MANAGE)
@require_POST
def generate(request, tournament: Tournament):
    form = GenerateRoundForm(tournament, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        outcome = round_generation.generate(
            tournament,
            data.get("section"),
            request.user,
            reason=data["reason"],
            absent=[e.pk for e in data.get("absent") or ()],
            half_bye=[e.pk for e in data.get("half_bye") or ()],
            background=data["background"],
        )
        if outcome.job:
            return redirect("manage-task", slug=tournament.slug, task_id=outcome.job)
        if outcome.rounds:
            return _generated(request, tournament, outcome.rounds)
        _add_problems(form, outcome.problems)
    return render(request, "rounds/rounds.html", _rounds_context(tournament, form, request.user))


def _generated(request, tournament: Tournament, round_ids: list[int]):
    count = len(round_ids)
    if count == 1:
        messages.success(request, _("Draft round created. Check it, then publish it."))
    else:
        messages.success(
            request,
            _("%(count)d draft rounds created. Publish them one by one.") % {"count": count},
        )
    return redirect("manage-round", slug=tournament.slug, round_id=round_ids[0])


# ---------------------------------------------------------------------------------------------
# one round
# ---------------------------------------------------------------------------------------------


def _names(tournament: Tournament) -> dict[int, Entry]:
    return {
        e.draw_number: e
        for e in tournament.entries.select_related("player").exclude(draw_number=None)
    }


def _label(names: dict[int, Entry], number: int | None) -> str:
    if number is None:
        return "—"
    e = names.get(number)
    return f"№{number} {e.player}" if e else f"№{number}"


def _round_context(rnd: Round, form: PairingChangeForm | None, user) -> dict:
    tournament = rnd.tournament
    lang = current_language()
    names = _names(tournament)
    shown = {str(n): _label(names, n) for n in names}  # as pm.names_of, without a second query
    expl = rnd.explanation or {}
    rows = {r.get("table"): r for r in expl.get("pairings", [])}
    tables = []
    for m in rnd.matches.select_related("entry_a__player", "entry_b__player").order_by("table"):
        row = rows.get(m.table, {})
        tables.append(
            {
                "match": m,
                "rematch": row.get("rematch", False),
                "white": _label(names, row["white"]) if row.get("white") else "",
                "bracket": row.get("match_id", ""),
                "notes": pm.messages(row.get("notes", []), lang, shown),
            }
        )
    groups = [
        {
            "score": g["score"],
            "players": [_label(names, p) for p in g["players"]],
            "floated_in": [_label(names, p) for p in g.get("floated_in", [])],
            "floated_out": [_label(names, p) for p in g.get("floated_out", [])],
        }
        for g in expl.get("groups", [])
    ]
    byes = [
        {
            "player": _label(names, b["player"]),
            "kind": b["kind"],
            "points": b["points"],
            "notes": pm.messages(b.get("notes", []), lang, shown),
        }
        for b in expl.get("byes", [])
    ]
    return {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "groups": groups,
        "byes": byes,
        "notes": pm.messages(expl.get("notes", []), lang, shown),
        "problems": pm.messages(expl.get("problems", []), lang, shown),
        "overridden": pm.messages(expl.get("overridden", []), lang, shown),
        "override_reason": expl.get("override_reason", ""),
        "manual": expl.get("manual", []),
        "team_matches": [
            {"names": " – ".join(tm.get("names", [])), "tables": tm.get("tables", [])}
            for tm in expl.get("team_matches", [])
        ],
        "form": form,
        "can_edit": allowed(user, "round.manage", tournament) and rnd.status == RoundStatus.DRAFT,
        "has_results": pm.matches_with_results(rnd).exists(),
        "can_unpublish": allowed(user, "round.manage", tournament)
        and rnd.status == RoundStatus.PUBLISHED,
        "can_enter_results": rnd.status != RoundStatus.DRAFT
        and allowed(user, "result.enter", tournament),
        "legend": [(n, str(e.player)) for n, e in sorted(names.items())],
    }


def _round(tournament: Tournament, round_id: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("section", "tournament"), pk=round_id, tournament=tournament
    )


@_view(OFFICIATE)
def round_detail(request, tournament: Tournament, round_id: int):
    rnd = _round(tournament, round_id)
    editable = allowed(request.user, "round.manage", tournament) and rnd.status == RoundStatus.DRAFT
    form = PairingChangeForm(rnd) if editable else None
    return render(request, "rounds/round.html", _round_context(rnd, form, request.user))


@_view(MANAGE)
@require_POST
def round_change(request, tournament: Tournament, round_id: int):
    rnd = _round(tournament, round_id)
    form = PairingChangeForm(rnd, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        action = pm.swap_players if data["action"] == PairingChangeForm.SWAP else pm.set_pairing
        try:
            action(
                rnd,
                data["player_x"].pk,
                data["player_y"].pk,
                user=request.user,
                reason=data["reason"],
                discard_results=data.get("discard_results", False),
            )
        except pm.PairingRefused as exc:
            _add_problems(form, exc.problems)
        else:
            messages.success(request, _("The pairing was changed."))
            return redirect("manage-round", slug=tournament.slug, round_id=rnd.pk)
    return render(request, "rounds/round.html", _round_context(rnd, form, request.user))


@_view(MANAGE)
def round_publish(request, tournament: Tournament, round_id: int):
    """GET: the confirmation ("publish round N: M tables; players will see it"); POST: publish.

    The round page's Publish button leads here; only the confirmation's form posts.
    """
    rnd = _round(tournament, round_id)
    if request.method != "POST":
        if rnd.status != RoundStatus.DRAFT:
            return redirect("manage-round", slug=tournament.slug, round_id=rnd.pk)
        return render(
            request,
            "rounds/publish.html",
            {
                "tournament": tournament,
                "round": rnd,
                "tables": rnd.matches.filter(entry_b__isnull=False).count(),
                "byes": rnd.matches.filter(entry_b__isnull=True).count(),
                "earlier_draft": pm.rounds_of(tournament, rnd.section)
                .filter(number__lt=rnd.number, status=RoundStatus.DRAFT)
                .first(),
            },
        )
    try:
        pm.publish_round(rnd, user=request.user)
    except pm.PairingRefused as exc:
        for p in exc.problems:
            messages.error(request, p.message(current_language()))
    else:
        messages.success(request, _("Round %(number)d is published.") % {"number": rnd.number})
    return redirect("manage-round", slug=tournament.slug, round_id=rnd.pk)


@_view(MANAGE)
@require_POST
def round_unpublish(request, tournament: Tournament, round_id: int):
    """Withdraw a publication (back to draft) while no result exists; audited with the reason."""
    rnd = _round(tournament, round_id)
    try:
        pm.unpublish_round(rnd, request.user, request.POST.get("reason", ""))
    except pm.PairingRefused as exc:
        for p in exc.problems:
            messages.error(request, p.message(current_language()))
    else:
        messages.success(
            request,
            _("The publication of round %(number)d is withdrawn: it is a draft again.")
            % {"number": rnd.number},
        )
    return redirect("manage-round", slug=tournament.slug, round_id=rnd.pk)


@_view(MANAGE)
@require_POST
def round_delete(request, tournament: Tournament, round_id: int):
    rnd = _round(tournament, round_id)
    try:
        pm.delete_draft(
            rnd,
            user=request.user,
            discard_results=bool(request.POST.get("discard_results")),
            reason=request.POST.get("reason", ""),
        )
    except pm.PairingRefused as exc:
        for p in exc.problems:
            messages.error(request, p.message(current_language()))
        return redirect("manage-round", slug=tournament.slug, round_id=rnd.pk)
    messages.success(request, _("The draft round was deleted."))
    return redirect("manage-rounds", slug=tournament.slug)


# ---------------------------------------------------------------------------------------------
# background pairing progress
# ---------------------------------------------------------------------------------------------


def _task_state(tournament: Tournament, task_id: str) -> dict[str, Any]:
    """The pairing job's progress as the page shows it (a job of another tournament is a 404)."""
    state = round_generation.job_state(tournament, task_id)
    if state is None:
        raise Http404
    out: dict[str, Any] = {"state": state["state"], "done": state["done"], "total": state["total"]}
    if state["rounds"]:
        out["url"] = reverse("manage-round", kwargs={"slug": tournament.slug, "round_id": state["rounds"][0]})
    if state["state"] == jobs.FAILURE:
        out["problems"] = [p.message(current_language()) for p in state["problems"]]
    return out


@_view(MANAGE)
def task_progress(request, tournament: Tournament, task_id: str):
    state = _task_state(tournament, task_id)
    status_url = reverse("manage-task-status", kwargs={"slug": tournament.slug, "task_id": task_id})
    return render(
        request,
        "rounds/task.html",
        {"tournament": tournament, "state": state, "status_url": status_url},
    )


@_view(MANAGE)
def task_status(request, tournament: Tournament, task_id: str):
    return JsonResponse(_task_state(tournament, task_id))
