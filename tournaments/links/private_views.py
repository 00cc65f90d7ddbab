"""An entry's private pages, opened by its signed link with no account (see :mod:`.private_links`).

Whoever opens ``/p/<token>/`` acts as the entry's player (a :class:`LinkHolder`):
sees their pairing and results, checks in, and (in ``scoring.entry.private_views``)
reports and confirms results. A forged, malformed or reissued token is a 404,
and the holder's rights are the permissions table's, like a player's account.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.access import private_links
from tournaments.access.permissions import allowed
from tournaments.access.visibility import is_public_round, public_matches
from tournaments.draw.views import verification_context
from tournaments.entries import status as entry_status
from tournaments.models import (
    ByeRequest,
    CompetitionSystem,
    EntryStatus,
    Match,
    RoundStatus,
    TournamentStatus,
)
from tournaments.rounds.pairing_manager.refusals import PairingRefused
from tournaments.rounds.swiss import requests as swiss_requests
from tournaments.rounds.swiss.forms import OwnByeRequestForm
from zarik.i18n import current_language

from . import match_disputes


def holder_or_404(token: str) -> private_links.LinkHolder:
    """The link holder of a valid token; a forged or reissued token does not exist (404)."""
    entry = private_links.entry_for(token)
    if entry is None:
        raise Http404
    return private_links.LinkHolder(entry)


def holder_and_match(token: str, match_id: int) -> tuple[private_links.LinkHolder, Match]:
    """The link holder and one match of their event they may see, in a published or finished
    round (the result pages, the record viewer and the analysis under a private link)."""
    holder = holder_or_404(token)
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "round__section", "entry_a__player", "entry_b__player"),
        pk=match_id, round__tournament_id=holder.entry.tournament_id,
    )  # fmt: skip
    if not is_public_round(match.round) or not allowed(holder, "match.see", match):
        raise Http404
    return holder, match


def entry_matches(entry):
    """The entry's matches in published and finished rounds, newest round first."""
    return (
        public_matches(Match.objects.filter(round__tournament_id=entry.tournament_id))
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .select_related("round__section", "entry_a__player", "entry_b__player")
        .order_by("-round__number", "-round__published_at", "-pk")
    )


def may_check_in(holder: private_links.LinkHolder) -> bool:
    """Self check-in is offered to a registered player of a tournament not yet finished."""
    entry = holder.entry
    return (
        entry.status == EntryStatus.REGISTERED
        and entry.tournament.status != TournamentStatus.FINISHED
        and allowed(holder, "entry.check_in", entry)
    )


def may_undo_check_in(holder: private_links.LinkHolder) -> bool:
    """A checked-in player may take it back until the round it is for is paired."""
    entry = holder.entry
    return (
        entry.status == EntryStatus.CHECKED_IN
        and entry.tournament.status != TournamentStatus.FINISHED
        and allowed(holder, "entry.check_in", entry)
        and not entry_status.round_paired(entry)
    )


def entry_page(request, token: str):
    """The player's own page: the current pairing, the results so far, disputes and the jury, check-in."""
    holder = holder_or_404(token)
    entry = holder.entry
    matches = list(entry_matches(entry))
    for m in matches:
        m.my_side = "a" if m.entry_a_id == entry.pk else "b"
        m.opponent = m.entry_b if m.my_side == "a" else m.entry_a
    current = next((m for m in matches if m.round.status == RoundStatus.PUBLISHED), None)
    if current is not None:
        annotate_waiting_report(current)
    return render(
        request,
        "links/private/entry.html",
        {
            "tournament": entry.tournament,
            "entry": entry,
            "matches": matches,
            "current": current,
            "token": token,
            "can_check_in": may_check_in(holder),
            "can_undo_check_in": may_undo_check_in(holder),
            "bye_requests": entry.bye_requests.all(),
            "bye_form": OwnByeRequestForm() if may_request_bye(holder) else None,
            "disputes": match_disputes.disputes_of(holder, matches, token),
            "draw_pending": bool(entry.tournament.draw_commitment and entry.tournament.draw_secret),
        },
    )


def draw(request, token: str):
    """The open draw's verification page under the player's private link: the same page as the
    public one, readable before the event is public — the commitment is meant to be noted down
    before the draw, and the players are who it is for (issue 44: it answered 404 to them)."""
    tournament = holder_or_404(token).entry.tournament
    context = verification_context(tournament) | {"page": "draw", "page_title": _("Draw of numbers"), "token": token}
    return render(request, "draw/public.html", context)


def annotate_waiting_report(match) -> None:
    """Put the score waiting for confirmation on the match, from the player's side.

    The phone page shows it at once (not behind a tap), with the action it asks for:
    confirm or dispute the opponent's report, or wait for the opponent to confirm yours.
    The results relation is read by name: the scoring room depends on this one, not back.
    """
    report = match.results.filter(state="reported").order_by("-reported_at", "-pk").first()
    match.waiting_report = report
    if report is None:
        return
    scores = (report.score_a, report.score_b)
    match.waiting_mine, match.waiting_theirs = scores if match.my_side == "a" else scores[::-1]
    match.waiting_by_me = report.reported_side == match.my_side


def may_request_bye(holder: private_links.LinkHolder) -> bool:
    """A player of a Swiss still under way may ask in advance to sit out a round."""
    entry = holder.entry
    return (
        entry.tournament.system == CompetitionSystem.SWISS
        and entry.status != EntryStatus.WITHDRAWN
        and entry.tournament.status != TournamentStatus.FINISHED
        and allowed(holder, "entry.request_bye", entry)
    )


@require_POST
def request_bye(request, token: str):
    """The player asks to sit out round k (scored by the tournament's rule for requested byes)."""
    holder = holder_or_404(token)
    form = OwnByeRequestForm(request.POST)
    if not may_request_bye(holder):
        messages.error(request, _("Byes can be requested only in a Swiss tournament under way."))
    elif not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    else:
        try:
            swiss_requests.request_bye(holder.entry, form.cleaned_data["round_number"], holder)
        except PairingRefused as exc:
            for p in exc.problems:
                messages.error(request, p.message(current_language()))
        else:
            messages.success(request, _("Your request to sit out the round is recorded."))
    return redirect("private-entry", token=token)


@require_POST
def cancel_bye(request, token: str, request_id: int):
    """The player takes back a requested bye while its round is not paired yet."""
    holder = holder_or_404(token)
    req = ByeRequest.objects.filter(pk=request_id, entry=holder.entry).first()
    if req is None:
        raise Http404
    try:
        swiss_requests.cancel_bye(req, holder)
    except PairingRefused as exc:
        for p in exc.problems:
            messages.error(request, p.message(current_language()))
    else:
        messages.success(request, _("The requested bye was cancelled."))
    return redirect("private-entry", token=token)


@require_POST
def check_in(request, token: str):
    """The player checks themselves in from their phone (the link or its QR code)."""
    holder = holder_or_404(token)
    try:
        entry_status.check_in(holder.entry, holder)
    except entry_status.EntryRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are checked in. Good luck!"))
    return redirect("private-entry", token=token)


@require_POST
def undo_check_in(request, token: str):
    """The player takes back their check-in from the phone, until the round is paired."""
    holder = holder_or_404(token)
    try:
        entry_status.undo_own_check_in(holder.entry, holder)
    except entry_status.EntryRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your check-in is undone: you will not be paired until you check in again."))
    return redirect("private-entry", token=token)


@require_POST
def notifications(request, token: str):
    """The player turns their email notifications on or off (``Player.email_notifications``)."""
    player = holder_or_404(token).entry.player
    player.email_notifications = request.POST.get("on") == "1"
    player.save(update_fields=["email_notifications"])
    if player.email_notifications:
        messages.success(request, _("You will receive emails about your pairings and results."))
    else:
        messages.success(request, _("You will receive no more notification emails."))
    return redirect("private-entry", token=token)
