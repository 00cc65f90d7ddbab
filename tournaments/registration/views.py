"""Self-registration pages: the public form ``/t/<slug>/register/`` and the organiser's
``/t/<slug>/manage/registrations/`` (options, applications, waiting list).

The rules and the emails are :mod:`.registration`'s; these views only show them.
A refusal is a field error (or a message at the top) in the reader's language,
with everything typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from clubs.models import Player
from tournaments import audit
from tournaments.access.permissions import can_view, tournament_view
from tournaments.models import Registration, RegistrationStatus, Tournament
from zarik.i18n import current_language

from . import services as registration
from .forms import RegistrationForm, RegistrationOptionsForm
from .problems import REGISTRATION

EDIT = "tournament.edit"


def _organiser(view):
    return login_required(tournament_view(EDIT)(view))


def _report(request, errors) -> None:
    """Say which emails could not be sent (the action itself is done)."""
    for error in errors:
        messages.warning(request, _("The email could not be sent: %(error)s") % {"error": error})


def _signed_in(request) -> dict:
    """A logged-in player's own names and email, filled in (they apply as themselves)."""
    player = Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    if player is None:
        return {}
    names = ("last_name", "first_name", "last_name_latin", "first_name_latin", "email", "category")
    return {name: getattr(player, name) for name in names}


def register(request, slug: str) -> HttpResponse:
    """The public application form (while the organiser keeps registration open).

    Opening registration publishes the form, not the event: a visitor reaches
    ``register/`` of an event that is not public yet (its pages stay hidden; the form
    does not link to them), because the organiser who opens registration wants
    applications (issue 36). A closed, hidden event stays a 404.
    """
    tournament = get_object_or_404(Tournament, slug=slug)
    visible = can_view(request.user, tournament)
    if not visible and not tournament.registration_open:
        raise Http404
    registration.settle_withdrawals(tournament)  # a grace ended, its job lost: the place is free now
    closed = registration.refusal(tournament)
    context = {
        "tournament": tournament, "closed": closed.message if closed else "", "event_visible": visible,
        "places_left": registration.places_left(tournament),
    }  # fmt: skip
    if closed:
        if request.method == "POST":  # closed (the deadline passed) while they typed: keep it, say why
            context["form"] = RegistrationForm(initial=request.POST.dict(), tournament=tournament)
        return render(request, "registration/register.html", context)
    form = RegistrationForm(request.POST or None, tournament=tournament, initial=_signed_in(request))
    if request.method == "POST" and form.is_valid():
        try:
            outcome = registration.apply(
                tournament, form.cleaned_data, language=current_language(), user=request.user
            )
        except registration.RegistrationRefused as exc:
            form.add_error(exc.field, exc.message)
        else:
            _report(request, outcome.email_errors)
            return render(
                request,
                "registration/done.html",
                {
                    "tournament": tournament,
                    "event_visible": visible,
                    "registration": outcome.registration,
                    "position": registration.waitlist_position(outcome.registration),
                    "email_sent": not outcome.email_errors,
                },
            )
    context["form"] = form
    return render(request, "registration/register.html", context, status=200)


def _application_reg(slug: str, token: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    reg = registration.application_for(tournament, token)
    if reg is None:
        raise Http404
    return tournament, reg


def _form_of(reg: Registration, tournament: Tournament) -> RegistrationForm:
    initial = {name: getattr(reg, name) for name in registration.FORM_FIELDS}
    return RegistrationForm(initial=initial, tournament=tournament)


#: The applicant's second tap: "Yes, withdraw" on the confirmation the first one shows.
WITHDRAW_CONFIRMED = "withdraw_confirmed"
#: "Take my withdrawal back", within ``registration.WITHDRAWAL_GRACE``.
TAKE_BACK = "take_back"


def application(request, slug: str, token: str) -> HttpResponse:
    """The applicant's own page (the signed link in every registration email): where the
    application stands, a form to correct it until it is decided (name spelling, email,
    club, category, rating — what was typed stays on an error), and a button to withdraw it,
    confirmed by email."""
    tournament, reg = _application_reg(slug, token)
    _report(request, registration.settle_withdrawals(tournament))  # a grace job lost with its process
    reg.refresh_from_db()
    form = None
    confirm = False
    if request.method == "POST" and request.POST.get("action") == "edit":
        form = RegistrationForm(request.POST, tournament=tournament)
        if not registration.editable(reg):
            form = None
            messages.error(request, REGISTRATION.problem("not_editable").message(current_language()))
        elif form.is_valid():
            try:
                registration.edit(reg, form.cleaned_data)
            except registration.RegistrationRefused as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(request, _("Your application is updated."))
                return redirect("registration-application", slug=slug, token=token)
    elif request.method == "POST" and request.POST.get("action") == TAKE_BACK:
        try:
            registration.take_back(reg)
        except registration.RegistrationRefused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your withdrawal is taken back: your application stands as before."))
        return redirect("registration-application", slug=slug, token=token)
    elif request.method == "POST" and request.POST.get("action") != WITHDRAW_CONFIRMED:
        # "Withdraw my application" asks first (issue 49: one tap gave the place away at once,
        # with an email to the next person); nothing changes until the applicant confirms.
        confirm = registration.withdrawable(reg)
    elif request.method == "POST" and registration.withdrawable(reg):
        try:
            outcome = registration.cancel(reg, None)
        except registration.RegistrationRefused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your application is withdrawn. A confirmation was sent to your email."))
            _report(request, outcome.email_errors)
        return redirect("registration-application", slug=slug, token=token)
    if form is None and registration.editable(reg):
        form = _form_of(reg, tournament)
    return render(
        request,
        "registration/application.html",
        {
            "tournament": tournament,
            "event_visible": can_view(request.user, tournament),
            "registration": reg,
            "position": registration.waitlist_position(reg),
            "withdrawable": registration.withdrawable(reg),
            "confirm_withdrawal": confirm,
            "can_take_back": registration.can_take_back(reg),
            "grace_minutes": registration.grace_minutes(),
            "grace_applies": not registration.started(tournament),
            "waiting": registration.waitlist(tournament).exists(),
            "form": form,
            "token": token,
        },
    )


@csrf_exempt
def application_emails(request, slug: str, token: str) -> HttpResponse:
    """"No more emails" for an applicant, entered or not (refused, waiting, pending).

    The footer link of every registration email and its ``List-Unsubscribe`` header:
    a POST turns the emails off — also the one-click POST a mail client sends (RFC 8058),
    without a CSRF token, hence the exemption: the signed token is the secret — and
    ``on=1`` turns them back on. A forged token is a 404.
    """
    tournament, reg = _application_reg(slug, token)
    changed = False
    if request.method == "POST":
        registration.set_emails(reg, request.POST.get("on") == "1")
        changed = True
    return render(
        request,
        "registration/emails.html",
        {"tournament": tournament, "registration": reg, "token": token, "changed": changed},
    )


def _sorted(tournament: Tournament) -> dict:
    regs = tournament.registrations.select_related("entry__player").order_by("created_at", "pk")
    by_status: dict[str, list] = {status: [] for status in RegistrationStatus.values}
    for reg in regs:
        by_status[reg.status].append(reg)
    return by_status


def _limit_warning(tournament) -> str:
    problem = registration.limit_warning(tournament)
    return problem.message(current_language()) if problem else ""


@_organiser
def manage(request, tournament) -> HttpResponse:
    """Options, the applications awaiting a decision, the waiting list in order, the decided ones."""
    form = RegistrationOptionsForm(instance=tournament)
    return _manage_page(request, tournament, form)


def _manage_page(request, tournament, form, status: int = 200) -> HttpResponse:
    _report(request, registration.settle_withdrawals(tournament))  # a grace ended, its job lost
    regs = _sorted(tournament)
    for reg in regs[RegistrationStatus.PENDING] + regs[RegistrationStatus.WAITLISTED]:
        reg.candidates = registration.candidates_for(reg)
        reg.over_limit = registration.approval_over_limit(tournament, reg) is not None  # asks for a reason
    return render(
        request,
        "registration/manage.html",
        {
            "tournament": tournament,
            "form": form,
            "pending": regs[RegistrationStatus.PENDING],
            "waitlisted": regs[RegistrationStatus.WAITLISTED],
            "approved": regs[RegistrationStatus.APPROVED],
            "closed_regs": regs[RegistrationStatus.REFUSED] + regs[RegistrationStatus.CANCELLED],
            "taken": registration.places_taken(tournament),
            "full": not registration.has_place(tournament),
            "over_limit": _limit_warning(tournament),
            "refusal": registration.refusal(tournament),
        },
        status=status,
    )


@require_POST
@_organiser
def options(request, tournament) -> HttpResponse:
    """Save the registration options; raising the limit offers places to the waiting list."""
    before = {f: getattr(tournament, f) for f in RegistrationOptionsForm.Meta.fields}
    form = RegistrationOptionsForm(request.POST, instance=tournament)
    if not form.is_valid():
        return _manage_page(request, tournament, form)
    tournament = form.save()
    after = {f: getattr(tournament, f) for f in RegistrationOptionsForm.Meta.fields}
    audit.record(request.user, tournament, "registration.settings", tournament, before, after)
    errors = registration.offer_free_places(tournament, request.user)
    _report(request, errors)
    messages.success(request, _("Registration options saved."))
    if warning := _limit_warning(tournament):
        messages.warning(request, warning)
    return redirect("manage-registrations", slug=tournament.slug)


@require_POST
@_organiser
def toggle(request, tournament) -> HttpResponse:
    """Open or close self-registration with one button."""
    registration.set_open(tournament, request.user, request.POST.get("open") == "1")
    if tournament.registration_open:
        messages.success(request, _("Registration is open."))
    else:
        messages.success(request, _("Registration is closed."))
    return redirect("manage-registrations", slug=tournament.slug)


ACTIONS = {
    "approve": (registration.approve, gettext_lazy("Application approved; the player is entered.")),
    "refuse": (registration.refuse, gettext_lazy("Application refused.")),
    "cancel": (registration.cancel, gettext_lazy("Application cancelled.")),
}


@require_POST
@_organiser
def decide(request, tournament, registration_id: int, action: str) -> HttpResponse:
    """Approve, refuse or cancel one application."""
    reg = get_object_or_404(Registration, pk=registration_id, tournament=tournament)
    if action not in ACTIONS:
        raise Http404
    func, done = ACTIONS[action]
    kwargs = {}
    if action == "approve":
        kwargs["player"] = request.POST.get("player") or None
        kwargs["over_limit_reason"] = request.POST.get("over_limit_reason") or ""
    else:
        kwargs["reason"] = (request.POST.get("reason") or "").strip()
    try:
        outcome = func(reg, request.user, **kwargs)
    except registration.RegistrationRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
        if outcome.not_emailed:
            messages.info(
                request,
                _("No email was sent: the same address has another application standing in this event."),
            )
        _report(request, outcome.email_errors)
    return redirect("manage-registrations", slug=tournament.slug)
