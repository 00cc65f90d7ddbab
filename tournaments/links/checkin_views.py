"""Bulk check-in at the desk ``/t/<slug>/manage/check-in/``: a check box per entry, and "all".

Mobile first: one big box per player, a count of present / not yet at the top,
and a search by name (``?q=``, any alphabet, ё-blind: :func:`clubs.names.search_key`).
Ticking checks in (:func:`.entry_status.check_in`, audited), unticking a
checked-in player undoes it (:func:`.entry_status.check_out`); withdrawn players
are listed apart and not touched. Permission: ``desk.run``. Players check
themselves in through their private link (``private-check-in``).

The desk and the players' phones write the same status at the same time, so a
save applies only what the organiser changed: every row posts the state it was
shown with (``shown-<pk>``), a row whose box still says what it was shown with is
left as it is now (a phone check-in made meanwhile stays), and a row changed here
that someone else changed meanwhile into something the desk did not see (a
withdrawal) is reported, not overwritten. Rows not shown (filtered out by the
search) are never touched, so "All present" on a filtered page ticks the rows shown.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.names import search_key
from tournaments.access.permissions import tournament_view
from tournaments.entries import status as entry_status
from tournaments.models import Entry, EntryStatus


def _matches(entry: Entry, words: list[str]) -> bool:
    """The entry's player name holds every word typed (the players' search key, so ё- and alphabet-blind)."""
    key = entry.player.search_key or search_key(entry.player.full_name)
    return all(w in key for w in words)


def _save(request, entries: list[Entry]) -> tuple[int, list[Entry], list[Entry]]:
    """Apply the organiser's changes; returns (changes, kept as changed elsewhere, refused)."""
    present = set(request.POST.getlist("present"))
    everyone = request.POST.get("all") == "1"
    changed, kept, refused = 0, [], []
    with transaction.atomic():
        rows = Entry.objects.select_for_update(of=("self",)).filter(pk__in=[x.pk for x in entries])
        for e in rows.select_related("player", "tournament").order_by("pk"):
            shown = request.POST.get(f"shown-{e.pk}")
            if shown not in ("0", "1"):
                continue  # the row was not on the organiser's page
            was_in = shown == "1"
            wanted = everyone or str(e.pk) in present
            now_in = e.status == EntryStatus.CHECKED_IN
            if wanted == was_in:
                if now_in != was_in:
                    kept.append(e)  # changed elsewhere (the player's phone): theirs stands
                continue
            if e.status == EntryStatus.WITHDRAWN:
                refused.append(e)
            elif wanted and not now_in:
                entry_status.check_in(e, request.user)
                changed += 1
            elif not wanted and now_in:
                entry_status.check_out(e, request.user)
                changed += 1
    return changed, kept, refused


@login_required
@tournament_view("desk.run")
def check_in(request, tournament) -> HttpResponse:
    query = (request.GET.get("q") or "").strip()
    words = search_key(query).split()
    entries = list(
        tournament.entries.select_related("player", "section").order_by(
            "draw_number", "player__last_name", "pk"
        )
    )
    if request.method == "POST":
        changed, kept, refused = _save(request, entries)
        messages.success(
            request,
            ngettext("%(n)s change saved.", "%(n)s changes saved.", changed) % {"n": changed}
            if changed
            else _("Nothing changed."),
        )
        if kept:
            messages.info(
                request,
                _("Changed elsewhere meanwhile and kept as it is now: %(names)s.")
                % {"names": ", ".join(e.player.full_name for e in kept)},
            )
        if refused:
            messages.error(
                request,
                _("Withdrawn meanwhile, not checked in: %(names)s.")
                % {"names": ", ".join(e.player.full_name for e in refused)},
            )
        url = reverse("manage-check-in", kwargs={"slug": tournament.slug})
        return redirect(f"{url}?{urlencode({'q': query})}" if query else url)
    active = [e for e in entries if e.status != EntryStatus.WITHDRAWN]
    present = sum(1 for e in active if e.status == EntryStatus.CHECKED_IN)
    return render(
        request,
        "links/check_in.html",
        {
            "tournament": tournament,
            "entries": [e for e in active if _matches(e, words)] if words else active,
            "query": query,
            "withdrawn": [e for e in entries if e.status == EntryStatus.WITHDRAWN],
            "present": present,
            "absent": len(active) - present,
        },
    )
