"""The organiser's page of private links ``/t/<slug>/manage/links/``: copy, reissue, email.

Every entry's link is shown in full (to copy into a message); reissuing one makes
the old link stop working at once (audited); "email the link" sends it to the
player's address when there is one. Permission: ``tournament.edit``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import audit
from tournaments.access import private_links
from tournaments.access.permissions import tournament_view
from tournaments.models import Entry
from tournaments.notifications import player_emails as emails
from tournaments.registration.problems import REGISTRATION
from zarik import site
from zarik.i18n import current_language


def _organiser(view):
    return login_required(tournament_view("tournament.edit")(view))


def _email_of(entry: Entry) -> str:
    reg = getattr(entry, "registration", None)
    return entry.player.email or (reg.email if reg is not None else "")


@_organiser
def links(request, tournament) -> HttpResponse:
    entries = list(
        tournament.entries.select_related("player", "section", "registration").order_by(
            "draw_number", "player__last_name", "pk"
        )
    )
    for e in entries:
        e.link = private_links.url_for(e, request)
        e.email = _email_of(e)
    base = site.base(request)
    return render(
        request,
        "links/links.html",
        {"tournament": tournament, "entries": entries, "site": base, "loopback": site.is_loopback(base)},
    )


def _back(tournament, entry) -> HttpResponse:
    return redirect(reverse("manage-links", kwargs={"slug": tournament.slug}) + f"#entry-{entry.pk}")


@require_POST
@_organiser
def reissue(request, tournament, entry_id: int) -> HttpResponse:
    """A new link for the entry; the old one stops working."""
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    with transaction.atomic():
        before = {"link_version": entry.link_version}
        private_links.reissue(entry)
        audit.record(
            request.user, tournament, "entry.link_reissue", entry, before,
            {"link_version": entry.link_version}, (request.POST.get("reason") or "").strip(),
        )
    messages.success(
        request,
        _("A new link for %(name)s: the old one no longer works.") % {"name": entry.player.full_name},
    )
    return _back(tournament, entry)


@require_POST
@_organiser
def email(request, tournament, entry_id: int) -> HttpResponse:
    """Send the entry's link to the player's email."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "registration"), pk=entry_id, tournament=tournament
    )
    address = _email_of(entry)
    if not address:
        messages.error(request, REGISTRATION.problem("no_email").message(current_language()))
        return _back(tournament, entry)
    reg = getattr(entry, "registration", None)
    player = entry.player
    context = {
        "names": {code: player.greeting_name(code) for code in emails.LANGUAGES},
        "link": emails.private_url(entry),
    }
    error = emails.send("link", address, tournament, context, (reg.language if reg else "") or player.language)
    if error:
        messages.error(
            request, REGISTRATION.problem("email_failed", error=error).message(current_language())
        )
    else:
        audit.record(request.user, tournament, "entry.link_email", entry, None, {"email": address})
        messages.success(request, _("The link was sent to %(email)s.") % {"email": address})
    return _back(tournament, entry)
