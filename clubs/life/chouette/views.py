"""Chouette pages (book ch10–11 «Швец»): a club's sessions with totals, a session's ledger and game entry.

``/clubs/<club>/chouette/`` lists the club's sessions with each player's total;
``…/chouette/new/`` starts one and ``…/chouette/<id>/`` shows the seats, every game with
its amounts and the running totals, with the form for the next game; ``…/export.xlsx``
is the same ledger as a workbook. Reading is public like the club page; starting a
session and entering games needs ``club.manage`` (the permissions table).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import ChouetteSession, Club
from scoring.rules.errors import RuleViolation
from tournaments import audit
from tournaments.access.permissions import allowed, require
from tournaments.exports.table_sheet import Column, table_workbook

from . import services as chouette_service
from .forms import KIND_CHOICES, GameForm, SessionForm


def sessions(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    context = {
        "club": club,
        "sessions": chouette_service.club_sessions(club),
        "manages": allowed(request.user, "club.manage", club),
    }
    return render(request, "clubs/chouette/list.html", context)


@login_required
def session_new(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    require(request.user, "club.manage", club)
    form = SessionForm(club, request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            session = form.save()
            audit.record(request.user, None, "chouette.create", session, None, session)
        return redirect("chouette-session", slug=club.slug, pk=session.pk)
    status = 400 if form.errors else 200
    return render(request, "clubs/chouette/new.html", {"club": club, "form": form}, status=status)


def _session(slug: str, pk: int) -> ChouetteSession:
    return get_object_or_404(ChouetteSession.objects.select_related("club"), pk=pk, club__slug=slug)


def _lines(session: ChouetteSession, ledger) -> list[dict]:
    """One line per game: its seats, result and each player's amount and running total."""
    kinds = dict(KIND_CHOICES)
    running = dict.fromkeys(session.players, 0)
    lines = []
    for outcome in ledger.outcomes:
        cells = []
        for player in session.players:
            amount = outcome.amounts.get(player, 0)
            running[player] += amount
            member = next((m for m in outcome.game.members if m.player == player), None)
            cells.append({"amount": amount, "total": running[player], "member": member,
                          "box": player == outcome.game.box})  # fmt: skip
        lines.append({
            "outcome": outcome,
            "winner": _("the box") if outcome.game.winner == "box" else _("the team"),
            "kind": kinds.get(outcome.game.kind, outcome.game.kind),
            "cells": cells,
        })  # fmt: skip
    return lines


def session_detail(request, slug: str, pk: int):
    session = _session(slug, pk)
    manages = allowed(request.user, "club.manage", session.club)
    ledger = chouette_service.ledger(session)
    number = len(ledger.outcomes) + 1
    form = None
    status = 200
    if manages:
        form = GameForm(session, ledger.lineup, number, request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                chouette_service.add_game(session, request.user, form.cleaned_data["game"])
            except RuleViolation:
                # Someone entered this game first: show the page again with the new seats.
                messages.error(request, _("The ledger changed meanwhile; check the seats and enter the game again."))
            else:
                messages.success(request, _("Game %(n)s entered.") % {"n": number})
            return redirect("chouette-session", slug=slug, pk=pk)
        if form.errors:
            status = 400
    elif request.method == "POST":
        require(request.user, "club.manage", session.club)
    context = {
        "club": session.club,
        "session": session,
        "ledger": ledger,
        "lines": _lines(session, ledger),
        "totals": [(p, ledger.totals[p], ledger.totals[p] * session.stake) for p in session.players],
        "form": form,
        "number": number,
        "manages": manages,
    }
    return render(request, "clubs/chouette/session.html", context, status=status)


@login_required
@require_POST
def session_undo(request, slug: str, pk: int):
    session = _session(slug, pk)
    require(request.user, "club.manage", session.club)
    removed = chouette_service.undo_last(session, request.user)
    if removed is not None:
        messages.success(request, _("Game %(n)s removed.") % {"n": removed.number})
    return redirect("chouette-session", slug=slug, pk=pk)


def session_export(request, slug: str, pk: int):
    session = _session(slug, pk)
    ledger = chouette_service.ledger(session)
    kinds = dict(KIND_CHOICES)
    columns = [Column(_("Game"), 8), Column(_("Box"), None, "name"), Column(_("Captain"), None, "name"),
               Column(_("Won"), 10, None), Column(_("Result"), 12, None)]  # fmt: skip
    columns += [Column(player, 12) for player in session.players]
    rows = []
    for outcome in ledger.outcomes:
        game = outcome.game
        row = [outcome.number, game.box, game.captain,
               _("the box") if game.winner == "box" else _("the team"), str(kinds.get(game.kind, game.kind))]  # fmt: skip
        row += [outcome.amounts.get(player, 0) for player in session.players]
        rows.append(row)
    rows.append(["", _("Total"), "", "", ""] + [ledger.totals[p] for p in session.players])
    rows.append(["", _("Total × stake"), "", "", ""] + [float(ledger.totals[p] * session.stake) for p in session.players])
    mode = session.get_cube_mode_display()
    subtitle = _("%(date)s · %(mode)s · stake %(stake)s per point") % {
        "date": session.played_on.isoformat(), "mode": mode, "stake": session.stake,
    }
    data = table_workbook(_("Chouette"), f"{session.club.name} · {session.name}", subtitle, columns, rows)
    response = HttpResponse(data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="chouette-{session.pk}.xlsx"'
    return response
