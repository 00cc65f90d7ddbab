"""The organiser's page of private links ``/t/<slug>/manage/links/``: copy, QR, reissue, email.

Every entry's link is shown in full with a copy button (our static JS) and its QR code
(an SVG drawn on the server, loaded only when opened); reissuing one makes the old link
stop working at once (audited); "email the link" sends it to the player's address when
there is one, and "email all links" to every player who has one (the same message, the
same audit line each); "print all links" is the player cards (one slip per player: name,
number, QR, link). Permission: ``tournament.edit``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import audit
from tournaments.access import private_links
from tournaments.access.permissions import tournament_view
from tournaments.models import Entry, EntryStatus
from tournaments.notifications import player_emails as emails
from tournaments.registration.problems import REGISTRATION
from zarik import site
from zarik.i18n import current_language

from .qr import qr_svg_document


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
        {"tournament": tournament, "entries": entries, "site": base, "loopback": site.is_loopback(base),
         "with_email": sum(1 for e in entries if e.email and e.status != EntryStatus.WITHDRAWN)},
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


def send_link(request, tournament, entry: Entry) -> tuple[str, str]:
    """Email ``entry``'s link to the player (in their language) and audit it: (address, error);
    no address: ("", ""). One path for "email the link" and "email all links"."""
    address = _email_of(entry)
    if not address:
        return "", ""
    reg = getattr(entry, "registration", None)
    player = entry.player
    context = {
        "names": {code: player.greeting_name(code) for code in emails.LANGUAGES},
        "link": emails.private_url(entry),
    }
    error = emails.send("link", address, tournament, context, (reg.language if reg else "") or player.language)
    if not error:
        audit.record(request.user, tournament, "entry.link_email", entry, None, {"email": address})
    return address, error


@require_POST
@_organiser
def email(request, tournament, entry_id: int) -> HttpResponse:
    """Send the entry's link to the player's email."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "registration"), pk=entry_id, tournament=tournament
    )
    address, error = send_link(request, tournament, entry)
    if not address:
        messages.error(request, REGISTRATION.problem("no_email").message(current_language()))
    elif error:
        messages.error(
            request, REGISTRATION.problem("email_failed", error=error).message(current_language())
        )
    else:
        messages.success(request, _("The link was sent to %(email)s.") % {"email": address})
    return _back(tournament, entry)


@require_POST
@_organiser
def email_all(request, tournament) -> HttpResponse:
    """Send every player still in the event who has an email address their own link; say how
    many were sent, who has no address, and which failed (with the server's answer)."""
    entries = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player", "registration")
    sent, without, failed = 0, [], []
    for entry in entries.order_by("draw_number", "player__last_name", "pk"):
        address, error = send_link(request, tournament, entry)
        if not address:
            without.append(entry.player.full_name)
        elif error:
            failed.append(f"{entry.player.full_name} ({address}): {error}")
        else:
            sent += 1
    messages.success(request, _("Links sent: %(n)s.") % {"n": sent})
    if without:
        messages.warning(
            request, _("No email address, so no letter (hand them the link or the printed card): %(names)s.")
            % {"names": ", ".join(without)},
        )  # fmt: skip
    for line in failed:
        messages.error(request, REGISTRATION.problem("email_failed", error=line).message(current_language()))
    return redirect("manage-links", slug=tournament.slug)


@never_cache
@_organiser
def qr(request, tournament, entry_id: int) -> HttpResponse:
    """The entry's private link as a QR code (SVG), for the links page to show on request."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    svg = qr_svg_document(private_links.url_for(entry, request), label=entry.player.full_name)
    return HttpResponse(svg, content_type="image/svg+xml")
