"""The desk's bulk check-in: tick the players standing at the desk, check them all in at once.

Each entry goes through the same audited move as the one-by-one button
(:func:`tournaments.entry_status.check_in`); a refused entry (withdrawn) is
named in the message and the others are checked in.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import entry_status
from tournaments.permissions import tournament_view

from .views import login_first


@require_POST
@login_first
@tournament_view("desk.run")
def desk_check_in(request, tournament) -> HttpResponse:
    ids = [int(v) for v in request.POST.getlist("entry") if v.isdigit()]
    done = 0
    for entry in tournament.entries.select_related("tournament", "player").filter(pk__in=ids):
        try:
            entry_status.check_in(entry, request.user)
        except entry_status.EntryRefused as exc:
            messages.error(request, f"{entry.player}: {exc.message}")
        else:
            done += 1
    messages.success(request, _("%(count)d player(s) checked in.") % {"count": done})
    return redirect("desk", slug=tournament.slug)
