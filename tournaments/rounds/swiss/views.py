"""The director's Swiss options page (``manage/swiss/``): forbidden pairs, requested byes,
and the qualification of the top N into a knockout cup; every action a service of
:mod:`tournaments.rounds.swiss.requests`, every refusal shown with the input kept."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.access.permissions import tournament_view
from tournaments.models import ByeRequest, ForbiddenPair, Tournament
from tournaments.rounds.pairing_manager.refusals import PairingRefused
from tournaments.rounds.pairing_manager.systems import options_of
from zarik.i18n import current_language

from . import requests as swiss_requests
from .forms import ByeRequestForm, ForbidPairForm, QualifyForm

EDIT = "round.manage"


def _view(view):
    return login_required(tournament_view(EDIT)(view))


def _page(request, tournament: Tournament, **forms):
    lang = current_language()
    try:
        options = options_of(tournament)
    except PairingRefused:
        options = None
    context = {
        "tournament": tournament,
        "forbid_form": forms.get("forbid") or ForbidPairForm(tournament),
        "bye_form": forms.get("bye") or ByeRequestForm(tournament),
        "qualify_form": forms.get("qualify") or QualifyForm(tournament),
        "pairs": ForbiddenPair.objects.filter(tournament=tournament)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("pk"),
        "byes": ByeRequest.objects.filter(entry__tournament=tournament).select_related("entry__player"),
        "club_apart_rounds": getattr(options, "club_apart_rounds", 0),
        "bye_points": getattr(options, "half_bye_points", None),
        "late_points": getattr(options, "late_entry_points", None),
        "lang": lang,
    }
    status = 200 if not any(f is not None and f.errors for f in forms.values()) else 400
    return render(request, "rounds/swiss.html", context, status=status)


def _refused(form, exc: PairingRefused) -> None:
    for p in exc.problems:
        form.add_error(None, p.message(current_language()))


@_view
def swiss_options(request, tournament: Tournament):
    return _page(request, tournament)


@_view
@require_POST
def forbid(request, tournament: Tournament):
    form = ForbidPairForm(tournament, request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            swiss_requests.forbid_pair(tournament, d["entry_a"], d["entry_b"], d["reason"], request.user)
        except PairingRefused as exc:
            _refused(form, exc)
        else:
            messages.success(request, _("The pair will not be paired."))
            return redirect("manage-swiss", slug=tournament.slug)
    return _page(request, tournament, forbid=form)


@_view
@require_POST
def allow(request, tournament: Tournament, pair_id: int):
    pair = get_object_or_404(ForbiddenPair, pk=pair_id, tournament=tournament)
    swiss_requests.allow_pair(pair, request.user)
    messages.success(request, _("The forbidden pair was lifted."))
    return redirect("manage-swiss", slug=tournament.slug)


@_view
@require_POST
def bye(request, tournament: Tournament):
    form = ByeRequestForm(tournament, request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            swiss_requests.request_bye(d["entry"], d["round_number"], request.user)
        except PairingRefused as exc:
            _refused(form, exc)
        else:
            messages.success(request, _("The requested bye was recorded."))
            return redirect("manage-swiss", slug=tournament.slug)
    return _page(request, tournament, bye=form)


@_view
@require_POST
def bye_cancel(request, tournament: Tournament, request_id: int):
    req = get_object_or_404(ByeRequest, pk=request_id, entry__tournament=tournament)
    try:
        swiss_requests.cancel_bye(req, request.user)
    except PairingRefused as exc:
        for p in exc.problems:
            messages.error(request, p.message(current_language()))
    else:
        messages.success(request, _("The requested bye was cancelled."))
    return redirect("manage-swiss", slug=tournament.slug)


@_view
@require_POST
def qualify(request, tournament: Tournament):
    form = QualifyForm(tournament, request.POST)
    if form.is_valid():
        args = form.qualify_args()
        try:
            made = swiss_requests.qualify_to_knockout(tournament, **args, user=request.user)
        except PairingRefused as exc:
            _refused(form, exc)
            tie = next((p for p in exc.problems if p.code == "pairing.qualify_tie_at_cut"), None)
            if tie is not None:
                form.offer_tie(tie.details["entries"])
        else:
            if made.slug == swiss_requests.playoff_slug(args["slug"]):
                messages.success(request, _(
                    "The play-off for the shared place is drawn: generate and play it, then "
                    "create the cup again with the play-off chosen — its winners take the places."
                ))
            else:
                messages.success(request, _("The cup is drawn from the standings: generate its first stage."))
            return redirect("manage-rounds", slug=made.slug)
    return _page(request, tournament, qualify=form)
