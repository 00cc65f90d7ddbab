"""Bulk check-in at the desk ``/t/<slug>/manage/check-in/``: a check box per entry, and "all".

Mobile first: one big box per player, a count of present / not yet at the top.
Ticking checks in (:func:`.entry_status.check_in`, audited), unticking a
checked-in player undoes it (:func:`.entry_status.check_out`); withdrawn players
are listed apart and not touched. Permission: ``desk.run``. Players check
themselves in through their private link (``private-check-in``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.access.permissions import tournament_view
from tournaments.entries import status as entry_status
from tournaments.models import EntryStatus


@login_required
@tournament_view("desk.run")
def check_in(request, tournament) -> HttpResponse:
    entries = list(
        tournament.entries.select_related("player", "section").order_by(
            "draw_number", "player__last_name", "pk"
        )
    )
    if request.method == "POST":
        present = set(request.POST.getlist("present"))
        everyone = request.POST.get("all") == "1"
        changed = 0
        with transaction.atomic():
            for e in entries:
                if e.status == EntryStatus.WITHDRAWN:
                    continue
                wanted = everyone or str(e.pk) in present
                if wanted and e.status != EntryStatus.CHECKED_IN:
                    entry_status.check_in(e, request.user)
                    changed += 1
                elif not wanted and e.status == EntryStatus.CHECKED_IN:
                    entry_status.check_out(e, request.user)
                    changed += 1
        messages.success(
            request,
            ngettext("%(n)s change saved.", "%(n)s changes saved.", changed) % {"n": changed}
            if changed
            else _("Nothing changed."),
        )
        return redirect("manage-check-in", slug=tournament.slug)
    active = [e for e in entries if e.status != EntryStatus.WITHDRAWN]
    present = sum(1 for e in active if e.status == EntryStatus.CHECKED_IN)
    return render(
        request,
        "links/check_in.html",
        {
            "tournament": tournament,
            "entries": active,
            "withdrawn": [e for e in entries if e.status == EntryStatus.WITHDRAWN],
            "present": present,
            "absent": len(active) - present,
        },
    )
