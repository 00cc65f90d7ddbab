"""The open draw of numbers in the UI: the director's Draw page and the public verification page.

The director (``round.manage``) chooses the seeding; with the open draw they
publish a commitment (the SHA-256 of a secret seed), then hold the draw after a
confirmation step. Anyone who may see the tournament reads the verification
page: before the draw the commitment and the participants in canonical order,
after it the seed, the method, the numbers, a check that SHA-256(seed) equals
the commitment, and how to re-run it themselves. Everything is refused once a
round exists (the numbers are in use).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from scoring.rules.errors import RuleViolation
from tournaments.access.permissions import allowed, tournament_view
from tournaments.audit import record
from tournaments.models import Seeding, Tournament
from zarik.i18n import current_language

from .numbers import ALGORITHM, verification_script
from .problems import DRAW
from .services import (
    check_draw,
    commit_draw,
    draw_locked,
    latest_draw,
    participants,
    perform_draw,
    perform_refusals,
)

MANAGE = "round.manage"


class SeedingForm(forms.Form):
    seeding = forms.ChoiceField(
        label=gettext_lazy("How draw numbers are given"),
        choices=Seeding.choices,
        help_text=gettext_lazy(
            "The book's rule is the open draw; with another seeding the numbers are given in "
            "that order when round 1 is paired."
        ),
    )


def _manage(view):
    return login_required(tournament_view(MANAGE)(view))


def _refused(request, problems) -> None:
    lang = current_language()
    for p in problems:
        messages.error(request, p.message(lang))


def _draw_rows(draw) -> list[dict]:
    """Participants of a stored draw in canonical order, with the number each one drew."""
    return [
        {"key": p["entry"], "name": p["name"], "number": n}
        for p, n in zip(draw.participants, draw.numbers, strict=True)
    ]


def verification_context(tournament: Tournament) -> dict:
    """What the pages show (the director's, the public one, the one under a private link): committed or not, the latest draw and its check."""
    draw = latest_draw(tournament)
    pending = bool(tournament.draw_secret)  # committed, not drawn yet
    context = {
        "tournament": tournament,
        "algorithm": ALGORITHM,
        "pending": pending,
        "locked": draw_locked(tournament),
        "draw": None if pending else draw,
        "entries": participants(tournament),
    }
    if draw is not None and not pending:
        check = check_draw(draw)
        keys = [str(p["entry"]) for p in draw.participants]
        context |= {
            "check": check,
            "rows": _draw_rows(draw),
            "by_number": sorted(_draw_rows(draw), key=lambda r: r["number"]),
            "script": verification_script(draw.seed, keys, tournament.draw_commitment or check.seed_hash),
            "check_problems": [p.message(current_language()) for p in check.problems(draw.seed)],
        }
    return context


@_manage
def manage(request, tournament: Tournament) -> HttpResponse:
    """The Draw tab: seeding, commitment, the draw (each step a POST)."""
    locked = draw_locked(tournament)
    form = SeedingForm(request.POST or None, initial={"seeding": tournament.seeding})
    if request.method == "POST":
        if locked:
            _refused(request, [DRAW.problem("rounds_exist")])
            return redirect("manage-draw", slug=tournament.slug)
        if form.is_valid():
            before = {"seeding": tournament.seeding}
            tournament.seeding = form.cleaned_data["seeding"]
            tournament.save(update_fields=["seeding"])
            record(request.user, tournament, "draw.choose_seeding", tournament, before, {"seeding": tournament.seeding})
            messages.success(request, _("Seeding saved."))
            return redirect("manage-draw", slug=tournament.slug)
    context = verification_context(tournament) | {
        "form": form, "is_draw": tournament.seeding == Seeding.DRAW, "unseen": unseen_warning(tournament),
    }  # fmt: skip
    return render(request, "draw/manage.html", context)


@require_POST
@_manage
def commit(request, tournament: Tournament) -> HttpResponse:
    try:
        digest = commit_draw(tournament, request.user)
    except RuleViolation as exc:
        _refused(request, exc.problems)
    else:
        messages.success(request, _("Commitment published: %(hash)s") % {"hash": digest})
        if warning := unseen_warning(tournament):
            messages.warning(request, warning)
    return redirect("manage-draw", slug=tournament.slug)


@_manage
def perform(request, tournament: Tournament) -> HttpResponse:
    """GET: the confirmation step; POST: hold the draw with the committed seed."""
    problems = perform_refusals(tournament)
    if problems:
        _refused(request, problems)
        return redirect("manage-draw", slug=tournament.slug)
    if request.method == "POST":
        try:
            perform_draw(tournament, user=request.user)
        except RuleViolation as exc:
            _refused(request, exc.problems)
            return redirect("manage-draw", slug=tournament.slug)
        messages.success(request, _("The draw is done: the numbers and the seed are published."))
        return redirect("manage-draw", slug=tournament.slug)
    return render(request, "draw/confirm.html", verification_context(tournament))


def unseen_warning(tournament: Tournament) -> str:
    """What the director is told while the event is not public: visitors cannot open the
    verification page yet (it is a 404 to them, as every page of an unreleased event), each
    player reads the commitment through their private link, and everyone once it is public
    (issue 44: nothing warned that the published commitment could not be seen)."""
    if tournament.public:
        return ""
    return _(
        "The event is not public yet: visitors cannot open the verification page. Each player "
        "sees the commitment now on their private page (its “Draw of numbers” link); everyone "
        "sees it once you make the event public (Settings → Event → Public)."
    )


@require_safe
@tournament_view("tournament.view")
def public(request, tournament: Tournament) -> HttpResponse:
    context = verification_context(tournament) | {
        "page": "draw",
        "page_title": _("Draw of numbers"),
        "can_manage": allowed(request.user, MANAGE, tournament),
    }
    return render(request, "draw/public.html", context)
