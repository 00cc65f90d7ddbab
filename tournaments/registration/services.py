"""Self-registration: apply, approve, refuse, cancel, and the waiting list — audited and emailed.

An application is a :class:`~tournaments.models.Registration`, never an entry,
until it is approved: applicants are not paired, drawn or ranked. The
organiser's options on the tournament decide the path:

* closed, past ``registration_deadline`` or a category outside
  ``registration_categories``: refused at once with a ``registration.*`` problem;
* above ``entry_limit`` (entries still in + applications awaiting approval):
  the waiting list, in order of application;
* ``registration_approval``: the application waits for the organiser; else it
  becomes an entry at once — unless the applicant may be a stored player the rule
  cannot settle (``clubs.identity``): then it waits for the organiser, who sees the
  candidates side by side and approves it as one of them or as a new player.

When a place frees up (an application refused or cancelled, an entry withdrawn
before round 1, the limit raised) the first on the waiting list is offered it:
it awaits approval, or is entered at once when no approval is needed.

An applicant who withdraws their own application before round 1 may take it back for
:data:`WITHDRAWAL_GRACE` (issue 49: one slip gave the place away at once, with an email
to the next person). Meanwhile the place stays theirs; the offer to the waiting list is
made when the grace ends, by a job scheduled then (:func:`schedule_settling`: a Celery task
with a countdown, or a timer thread in the embedded set-up), and — should that job be lost
with its process — by the next registration action or registration page of the event
(:func:`settle_withdrawals`). The organiser's own cancellations have no grace.
Every step writes the audit log and emails the applicant (:mod:`.emails`).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from dataclasses import dataclass, field

from celery import shared_task
from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubs.identity.matching import Name, Person, compare_names
from clubs.identity.services import Candidate, IdentityUndecided, identify, person_of
from clubs.identity.services import candidates as identity_candidates
from clubs.models import Club, Player
from clubs.names import greeting_name
from scoring.rules.errors import Problem
from tournaments import audit
from tournaments.access.permissions import allowed
from tournaments.cache import invalidate
from tournaments.events import emit
from tournaments.jobs.progress import later
from tournaments.models import (
    Entry,
    EntryStatus,
    Registration,
    RegistrationStatus,
    RoundStatus,
    Tournament,
)
from tournaments.notifications import player_emails as emails
from tournaments.notifications.event_emails import opt_out_url
from tournaments.rounds.pairing_manager.status import update_status
from zarik.i18n import current_language
from zarik.site import absolute

from .problems import REGISTRATION

logger = logging.getLogger(__name__)

OPEN_STATES = (RegistrationStatus.PENDING, RegistrationStatus.WAITLISTED)
APPLICATION_SALT = "zarik.registration-application"

#: How long an applicant may take back their own withdrawal (before round 1) while the place
#: stays theirs; the waiting list is offered the place when it ends. Long enough to notice a
#: slip on the page or in the confirming email, short enough that the next person still has time.
WITHDRAWAL_GRACE = dt.timedelta(minutes=10)
#: What a withdrawn applicant had that holds a place (``Registration.withdrawn_from``): an
#: application awaiting approval or an entry. A waiting-list one held none.
HELD_PLACES = (RegistrationStatus.PENDING, EntryStatus.REGISTERED, EntryStatus.CHECKED_IN)


class RegistrationRefused(Exception):
    """A refusal carrying a ``registration.*`` problem; ``field`` is the form field it belongs to."""

    def __init__(self, problem: Problem, field: str | None = None):
        self.problem = problem
        self.field = field
        super().__init__(problem.code)

    @property
    def message(self) -> str:
        return self.problem.message(current_language())


@dataclass
class Outcome:
    """What happened, for the page to say: the registration and the emails' errors (if any)."""

    registration: Registration
    email_errors: list[str] = field(default_factory=list)
    #: The applicant was not written to, and why (shown to the organiser).
    not_emailed: str = ""


# --------------------------------------------------------------------------- the rules


def refusal(tournament: Tournament, category: int | None = None, now=None) -> RegistrationRefused | None:
    """Why an application would be refused now (None: it is accepted)."""
    if not tournament.registration_open:
        return RegistrationRefused(REGISTRATION.problem("closed"))
    now = now or timezone.now()
    if tournament.registration_deadline and now > tournament.registration_deadline:
        deadline = date_format(timezone.localtime(tournament.registration_deadline), "DATETIME_FORMAT")
        return RegistrationRefused(REGISTRATION.problem("deadline", deadline=deadline))
    return category_refusal(tournament, category)


def category_refusal(tournament: Tournament, category: int | None) -> RegistrationRefused | None:
    allowed_categories = sorted(int(c) for c in tournament.registration_categories or ())
    if category is not None and allowed_categories and int(category) not in allowed_categories:
        return RegistrationRefused(
            REGISTRATION.problem(
                "category", category=category, allowed=", ".join(map(str, allowed_categories))
            ),
            "category",
        )
    return None


def places_taken(tournament: Tournament) -> int:
    """Entries still in plus applications awaiting approval (each holds a place), plus the
    places of withdrawals the applicant may still take back (:data:`WITHDRAWAL_GRACE`)."""
    entries = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).count()
    pending = tournament.registrations.filter(status=RegistrationStatus.PENDING).count()
    return entries + pending + in_grace(tournament).filter(withdrawn_from__in=HELD_PLACES).count()


def in_grace(tournament: Tournament):
    """The applicants' own withdrawals not yet settled: their grace runs, or ended with the
    offer to the waiting list still to be made (:func:`settle_withdrawals`)."""
    return tournament.registrations.filter(status=RegistrationStatus.CANCELLED, undo_until__isnull=False)


def has_place(tournament: Tournament) -> bool:
    return tournament.entry_limit is None or places_taken(tournament) < tournament.entry_limit


def places_left(tournament: Tournament) -> int | None:
    """Free places under ``entry_limit`` (never below 0), or None with no limit: what the public
    form says before anyone fills it in (issue 49)."""
    if tournament.entry_limit is None:
        return None
    return max(0, tournament.entry_limit - places_taken(tournament))


def over_limit_by(tournament: Tournament) -> int:
    """How many places taken exceed ``entry_limit`` (0 within it): a limit lowered below the places
    already taken removes nobody, and the organiser is told so."""
    if tournament.entry_limit is None:
        return 0
    return max(0, places_taken(tournament) - tournament.entry_limit)


def _entries_in(tournament: Tournament) -> int:
    return tournament.entries.exclude(status=EntryStatus.WITHDRAWN).count()


def limit_warning(tournament: Tournament) -> Problem | None:
    """``registration.over_limit`` when the limit is below the places taken, for the organiser's pages."""
    if not over_limit_by(tournament):
        return None
    return REGISTRATION.problem("over_limit", limit=tournament.entry_limit, taken=places_taken(tournament))


def approval_over_limit(tournament: Tournament, reg: Registration) -> Problem | None:
    """Why approving ``reg`` would go over ``entry_limit``, or None: a waiting-list application
    needs a free place; a pending one holds a place unless the entries already fill the limit."""
    limit = tournament.entry_limit
    if limit is None:
        return None
    if reg.status == RegistrationStatus.WAITLISTED:
        return None if has_place(tournament) else REGISTRATION.problem(
            "full", taken=places_taken(tournament), limit=limit
        )  # fmt: skip
    entries = _entries_in(tournament)
    return REGISTRATION.problem("full_pending", entries=entries, limit=limit) if entries >= limit else None


def waitlist(tournament: Tournament):
    """The waiting list in order: the first is offered the next free place."""
    return tournament.registrations.filter(status=RegistrationStatus.WAITLISTED).order_by(
        "created_at", "pk"
    )


def waitlist_position(reg: Registration) -> int | None:
    """The applicant's place on the waiting list (1: offered the next free place); None when not on it.

    The same order as :func:`waitlist`: by time of application, then by id.
    """
    if reg.status != RegistrationStatus.WAITLISTED:
        return None
    ahead = waitlist(reg.tournament).filter(
        Q(created_at__lt=reg.created_at) | Q(created_at=reg.created_at, pk__lt=reg.pk)
    )
    return ahead.count() + 1


def started(tournament: Tournament) -> bool:
    """Round 1 has been published (a withdrawal after that frees no place)."""
    return tournament.rounds.exclude(status=RoundStatus.DRAFT).exists()


def _lock(tournament: Tournament) -> Tournament:
    """The tournament row, locked so two applications never take the same last place."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --------------------------------------------------------------------------- entries


def person(reg: Registration) -> Person:
    """The applicant as the identity service sees them (the club named, if it is one we know)."""
    club_name = (reg.club_name or "").strip().casefold()
    clubs = frozenset(
        pk for pk, name in Club.objects.values_list("pk", "name") if club_name and name.casefold() == club_name
    )  # Python's casefold: SQLite's iexact ignores Cyrillic case
    return Person(
        reg.last_name.strip(), reg.first_name.strip(), reg.last_name_latin.strip(),
        reg.first_name_latin.strip(), reg.email, None, clubs, reg.rating,
    )  # fmt: skip


def candidates_for(reg: Registration) -> list[Candidate]:
    """The stored players this applicant may be, most likely first (the organiser's page shows them)."""
    return identity_candidates(person(reg))[1]


def _player_for(reg: Registration, choice: str | int | None = None) -> Player:
    """The stored player the applicant is (the rule or the organiser's ``choice``), or a new one.

    Never changes a stored player (not even an empty email): the application is theirs,
    the player record is the club's. An applicant who applied logged in as a player under
    that player's name (:attr:`Registration.signed_in_as`) proved who they are. Raises
    :class:`IdentityUndecided` when a person must choose.
    """
    if choice in (None, "") and reg.signed_in_as_id:
        return reg.signed_in_as
    found = identify(person(reg), choice, self_declared=True)
    if found.player is not None:
        return found.player
    return Player.objects.create(
        last_name=reg.last_name.strip(),
        first_name=reg.first_name.strip(),
        last_name_latin=reg.last_name_latin.strip(),
        first_name_latin=reg.first_name_latin.strip(),
        email=reg.email,
        email_notifications=reg.email_notifications,  # "no more emails" said while applying holds
        language=reg.language,  # their emails follow the language they registered in
        category=reg.category,
        rating=reg.rating if reg.rating is not None else 1500.0,
    )


def _section_for(tournament: Tournament, category: int):
    return (
        tournament.sections.filter(min_category__lte=category, max_category__gte=category)
        .order_by("order", "pk")
        .first()
    )


def _make_entry(reg: Registration, user, choice: str | int | None = None) -> Entry:
    tournament = reg.tournament
    try:
        player = _player_for(reg, choice)
    except IdentityUndecided as exc:
        raise RegistrationRefused(exc.problem) from exc
    if tournament.entries.filter(player=player).exists():
        raise RegistrationRefused(REGISTRATION.problem("already_entered", name=player.full_name))
    last = tournament.rounds.exclude(status=RoundStatus.DRAFT).order_by("-number").first()
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        category=reg.category,  # the category they chose to enter (book Part 9)
        section=_section_for(tournament, reg.category),
        seed_rating=reg.rating if reg.rating is not None else player.rating,
        joined_round=last.number + 1 if last else None,
    )
    audit.record(user, tournament, "registration.entry", entry, None, entry)
    emit("entry.added", tournament.pk, entry=entry.pk)  # an approved application is an entry like any other
    return entry


def _move(reg: Registration, user, status: str, action: str, reason: str = "") -> Registration:
    before = audit.snapshot(reg)
    reg.status = status
    if status not in OPEN_STATES:
        reg.decided_at = timezone.now()
    reg.save()
    audit.record(user, reg.tournament, action, reg, before, reg, reason)
    return reg


def _enter(reg: Registration, user, choice: str | int | None = None, reason: str = "") -> Registration:
    reg.entry = _make_entry(reg, user, choice)
    return _move(reg, user, RegistrationStatus.APPROVED, "registration.approve", reason)


def _enter_if_known(reg: Registration, user) -> bool:
    """Enter an application that needs no approval, unless the organiser must say who it is.

    An applicant whose name matches a stored player (and whom the email does not settle)
    waits for the organiser's choice even when the tournament needs no approval: entering
    them would either create a second player or take over someone else's.
    """
    try:
        if not reg.signed_in_as_id:
            identify(person(reg), self_declared=True)
    except IdentityUndecided:
        return False
    _enter(reg, user)
    return True


def emails_url(reg: Registration) -> str:
    """The applicant's own "no more emails" page (also the one-click ``List-Unsubscribe`` target)."""
    kwargs = {"slug": reg.tournament.slug, "token": application_token(reg)}
    return absolute(reverse("registration-emails", kwargs=kwargs))


def set_emails(reg: Registration, on: bool) -> None:
    """The applicant turns the emails about their application off (or on again).

    Before they are entered this is the application's own switch (nobody is a player
    yet: refused, waiting, pending); once entered, the player's opt-out governs
    (:mod:`tournaments.notifications.event_emails`), and the entry's player follows.
    """
    Registration.objects.filter(pk=reg.pk).update(email_notifications=on)
    reg.email_notifications = on
    if reg.entry_id and reg.entry.player.email_notifications != on:
        player = reg.entry.player
        player.email_notifications = on
        player.save(update_fields=["email_notifications"])


def _email(reg: Registration, kind: str, **context) -> str:
    """Email the applicant; every registration email says where, when and how to withdraw (issue 36).

    Every one carries an opt-out (footer link and the one-click ``List-Unsubscribe``
    header): the player's once entered, else the application's own (:func:`emails_url`);
    an applicant who used it is not written to.
    """
    tournament = reg.tournament
    entered_player = reg.entry.player if reg.entry_id else None
    if not (entered_player.email_notifications if entered_player else reg.email_notifications):
        return ""
    slug = {"slug": tournament.slug}
    context.setdefault(
        "tournament_url", absolute(reverse("tournament" if tournament.public else "register", kwargs=slug))
    )  # a hidden event's pages are a 404 to the applicant; its form is not
    if kind != "cancelled" or context.get("undo_until"):  # a withdrawal in its grace: the page takes it back
        context.setdefault(
            "application_url",
            absolute(reverse("registration-application", kwargs={**slug, "token": application_token(reg)})),
        )
    context.setdefault("opt_out", opt_out_url(entered_player) if entered_player else emails_url(reg))
    context.setdefault("names", {
        code: greeting_name(reg.last_name, reg.first_name, reg.last_name_latin, reg.first_name_latin, code)
        for code in emails.LANGUAGES
    })
    if reg.entry_id:
        context.setdefault("link", emails.private_url(reg.entry))
    return emails.send(kind, reg.email, reg.tournament, context, reg.language, unsubscribe=context["opt_out"])


# --------------------------------------------------------------------------- the actions


def live_applications(tournament: Tournament, email: str, exclude: int | None = None):
    """This event's applications from ``email`` still standing (open, or entered), but ``exclude``."""
    found = tournament.registrations.filter(
        email__iexact=(email or "").strip(), status__in=(*OPEN_STATES, RegistrationStatus.APPROVED)
    )
    return found.exclude(pk=exclude) if exclude else found


def _refuse_duplicate(tournament: Tournament, data: dict, exclude: int | None = None) -> None:
    """The same email is the same applicant (issue 36): a second application from it is refused.

    The message says whether the name is the same too (compared in any alphabet, with ё
    or е, in any order: «Петров Пётр» is «Петров Петр» is «Petrov Petr»), and the way to
    change the standing application instead (its own page, linked from every email).
    """
    standing = list(live_applications(tournament, data.get("email", ""), exclude))
    if not standing:
        return
    incoming = Person(
        (data.get("last_name") or "").strip(), (data.get("first_name") or "").strip(),
        (data.get("last_name_latin") or "").strip(), (data.get("first_name_latin") or "").strip(),
    )  # fmt: skip
    same_name = any(
        compare_names(incoming, Person(r.last_name, r.first_name, r.last_name_latin, r.first_name_latin))
        is Name.SAME
        for r in standing
    )
    raise RegistrationRefused(REGISTRATION.problem("duplicate" if same_name else "same_email"), "email")


def account_player(user, data: dict) -> Player | None:
    """The player whose account applies, when the application is in that player's own name.

    Logging in is the proof a typed name and club are not (issue 36): such an application
    is that player's without the organiser's choice. An account applying under another
    name (an organiser entering a friend) proves nothing about them.
    """
    if user is None or not user.is_authenticated:
        return None
    player = Player.objects.filter(user=user).first()
    if player is None:
        return None
    incoming = Person(
        (data.get("last_name") or "").strip(), (data.get("first_name") or "").strip(),
        (data.get("last_name_latin") or "").strip(), (data.get("first_name_latin") or "").strip(),
    )  # fmt: skip
    return player if compare_names(incoming, person_of(player)) is Name.SAME else None


def apply(tournament: Tournament, data: dict, *, language: str = "", user=None) -> Outcome:
    """A public application (the form's cleaned data); raises :class:`RegistrationRefused`.

    ``user``: the visitor's account, if logged in (:func:`account_player`).
    """
    with transaction.atomic():
        tournament = _lock(tournament)
        problem = refusal(tournament, data.get("category"))
        if problem is not None:
            raise problem
        _refuse_duplicate(tournament, data)
        fields = {k: data.get(k) for k in FORM_FIELDS if k in data}
        if has_place(tournament):
            status = RegistrationStatus.PENDING
        else:
            status = RegistrationStatus.WAITLISTED
        reg = Registration.objects.create(
            tournament=tournament, status=status, language=language[:2],
            signed_in_as=account_player(user, data), **fields,
        )  # fmt: skip
        audit.record(None, tournament, "registration.apply", reg, None, reg)
        emit("registration.received", tournament.pk, registration=reg.pk)
        if status == RegistrationStatus.PENDING and not tournament.registration_approval:
            _enter_if_known(reg, None)
    kind = {
        RegistrationStatus.PENDING: "received",
        RegistrationStatus.WAITLISTED: "waitlisted",
        RegistrationStatus.APPROVED: "approved",
    }[reg.status]
    extra = {"position": waitlist_position(reg)} if kind == "waitlisted" else {}
    return Outcome(reg, [e for e in [_email(reg, kind, **extra)] if e])


#: What an application stores from the form (the rest of a Registration is the workflow's).
FORM_FIELDS = (
    "last_name",
    "first_name",
    "last_name_latin",
    "first_name_latin",
    "email",
    "club_name",
    "category",
    "rating",
)


def edit(reg: Registration, data: dict) -> Registration:
    """The applicant corrects their application (their signed page) until it is decided.

    Name spelling, email, club, category and rating, by the public form's rules: a
    category the event does not take is refused, and so is an email another standing
    application uses (one email, one applicant). The deadline does not stop a correction;
    an approved, refused or withdrawn application is no longer theirs to change.
    """
    with transaction.atomic():
        tournament = _lock(reg.tournament)
        reg = Registration.objects.select_for_update().get(pk=reg.pk)
        if reg.status not in OPEN_STATES:
            raise RegistrationRefused(REGISTRATION.problem("not_editable"))
        problem = category_refusal(tournament, data.get("category"))
        if problem is not None:
            raise problem
        _refuse_duplicate(tournament, data, exclude=reg.pk)
        before = audit.snapshot(reg)
        for name in FORM_FIELDS:
            if name in data:
                setattr(reg, name, data[name])
        reg.save()
        audit.record(None, tournament, "registration.edit", reg, before, reg)
    return reg


def editable(reg: Registration) -> bool:
    """The applicant may still change their application: it is not decided yet."""
    return reg.status in OPEN_STATES


def _decidable(reg: Registration, user) -> None:
    if not allowed(user, "tournament.edit", reg.tournament):
        raise PermissionDenied
    if reg.status not in OPEN_STATES:
        raise RegistrationRefused(REGISTRATION.problem("decided"))


def approve(
    reg: Registration, user, player: str | int | None = None, over_limit_reason: str = ""
) -> Outcome:
    """The organiser accepts an application (pending, or from the waiting list): it becomes an entry.

    ``player``: the organiser's answer to "who is this?" — a proposed player's id, or
    :data:`clubs.identity.services.NEW`; needed when the applicant's name matches a stored player.

    A pending application already holds a place; one from the waiting list of a full
    tournament does not, so it is refused (``registration.full``) unless the organiser
    goes over ``entry_limit`` on purpose and says why: ``over_limit_reason``, kept in the
    audit log's approval entry. A pending application whose place was taken away by a
    lowered limit (the entries already fill it) asks for the reason the same way (issue 49).
    """
    over_limit_reason = (over_limit_reason or "").strip()
    with transaction.atomic():
        tournament = _lock(reg.tournament)
        reg = Registration.objects.select_for_update().get(pk=reg.pk)
        _decidable(reg, user)
        problem = approval_over_limit(tournament, reg)
        if problem is not None:
            if not over_limit_reason:
                raise RegistrationRefused(problem, "over_limit_reason")
        else:
            over_limit_reason = ""  # within the limit: nothing to justify
        _enter(reg, user, player, over_limit_reason)
    return Outcome(reg, [e for e in [_email(reg, "approved")] if e])


def refuse(reg: Registration, user, reason: str = "") -> Outcome:
    """The organiser refuses an application; a place it held goes to the waiting list."""
    with transaction.atomic():
        _lock(reg.tournament)
        reg = Registration.objects.select_for_update().get(pk=reg.pk)
        _decidable(reg, user)
        _move(reg, user, RegistrationStatus.REFUSED, "registration.refuse", reason)
        standing = live_applications(reg.tournament, reg.email).exists()
    # A duplicate's address is the standing applicant's: "application refused" would tell
    # an entered player they are out (issue 36). They are not written to.
    errors = [] if standing else [_email(reg, "refused", reason=reason)]
    errors += offer_free_places(reg.tournament, user)
    note = "same_email" if standing else ""
    return Outcome(reg, [e for e in errors if e], note)


def cancel(reg: Registration, user, reason: str = "", now=None) -> Outcome:
    """The application is withdrawn (the applicant asked); an entry made from it is withdrawn too.

    ``user`` is the organiser; ``None`` is the applicant themself, through their signed
    application link (:func:`application_token`) — the link is the permission. The
    applicant's own withdrawal before round 1 may be taken back (:func:`take_back`) until
    :data:`WITHDRAWAL_GRACE` has passed; the place is offered to the waiting list then
    (:func:`schedule_settling`). The organiser's is final at once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        _lock(reg.tournament)
        reg = Registration.objects.select_for_update(of=("self",)).select_related("entry").get(pk=reg.pk)
        if user is not None and not allowed(user, "tournament.edit", reg.tournament):
            raise PermissionDenied
        if reg.status not in (*OPEN_STATES, RegistrationStatus.APPROVED):
            raise RegistrationRefused(REGISTRATION.problem("decided"))
        started_now = started(reg.tournament)
        entry = reg.entry
        had = entry.status if entry is not None else reg.status
        if entry is not None and entry.status != EntryStatus.WITHDRAWN:
            _entry_status(entry, user, EntryStatus.WITHDRAWN, "entry.withdraw", reason)
        if user is None and not started_now and had != EntryStatus.WITHDRAWN:
            reg.undo_until, reg.withdrawn_from = now + WITHDRAWAL_GRACE, had
        _move(reg, user, RegistrationStatus.CANCELLED, "registration.cancel", reason)
    # The withdrawal is confirmed to the applicant (with the time to take it back, if any).
    errors = [_email(reg, "cancelled", reason=reason, undo_until=reg.undo_until)]
    if reg.undo_until is not None:
        transaction.on_commit(lambda: schedule_settling(reg.tournament_id, reg.undo_until))
    elif not started_now:
        errors += offer_free_places(reg.tournament, user)
    return Outcome(reg, [e for e in errors if e])


def _entry_status(entry: Entry, user, status: str, action: str, reason: str = "") -> None:
    before = audit.snapshot(entry)
    Entry.objects.filter(pk=entry.pk).update(status=status)
    invalidate(entry.tournament_id)  # no signal from update(): the standings move on now
    entry.status = status
    audit.record(user, entry.tournament, action, entry, before, entry, reason)


def can_take_back(reg: Registration, now=None) -> bool:
    """The applicant's own withdrawal may still be taken back: within :data:`WITHDRAWAL_GRACE`,
    and, for an entry, before round 1 is published (after it he would be a late entry, the
    organiser's decision)."""
    now = now or timezone.now()
    if reg.status != RegistrationStatus.CANCELLED or reg.undo_until is None or now >= reg.undo_until:
        return False
    return reg.withdrawn_from in OPEN_STATES or not started(reg.tournament)


def take_back(reg: Registration, now=None) -> Registration:
    """The applicant takes their withdrawal back within the grace: the application (and its
    entry) stand as before, in the same place, audited; nothing was offered to anyone yet."""
    with transaction.atomic():
        _lock(reg.tournament)
        reg = Registration.objects.select_for_update(of=("self",)).select_related("entry").get(pk=reg.pk)
        if not can_take_back(reg, now):
            raise RegistrationRefused(REGISTRATION.problem("grace_over", minutes=grace_minutes()))
        had = reg.withdrawn_from
        if reg.entry_id and had in (EntryStatus.REGISTERED, EntryStatus.CHECKED_IN):
            _entry_status(reg.entry, None, had, "entry.reinstate")  # the line after says why
            status = RegistrationStatus.APPROVED
        else:
            status = had
        before = audit.snapshot(reg)
        reg.status, reg.undo_until, reg.withdrawn_from, reg.decided_at = status, None, "", None
        if status == RegistrationStatus.APPROVED:
            reg.decided_at = timezone.now()
        reg.save()
        audit.record(None, reg.tournament, "registration.take_back", reg, before, reg)
    if reg.entry_id and had in (EntryStatus.REGISTERED, EntryStatus.CHECKED_IN):
        update_status(reg.tournament, None)
    return reg


@shared_task(name="tournaments.settle_withdrawals", ignore_result=True)
def settle_withdrawals_task(tournament_id: int) -> int:
    """The job at the end of a withdrawal's grace: offer the freed places; returns the email errors."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return len(settle_withdrawals(tournament)) if tournament is not None else 0


def _settle_in_thread(tournament_id: int) -> None:
    close_old_connections()
    try:
        settle_withdrawals_task.apply((tournament_id,))
    except Exception:  # noqa: BLE001 - a timer has nobody to tell; the next registration read settles it
        logger.exception("settling the withdrawals of tournament %s failed", tournament_id)
    finally:
        close_old_connections()


def schedule_settling(tournament_id: int, at: dt.datetime) -> None:
    """Have the tournament's withdrawals settled at ``at``, the end of a grace.

    With a broker: the Celery task with the grace as its countdown, on a worker. In the
    embedded set-up (no broker, tasks eager: ``make run``): a daemon timer thread in this
    web process, as the webhook lanes retry (:mod:`tournaments.notifications.webhook_runner`).
    Either may be lost with its process; :func:`settle_withdrawals` then runs at the next
    registration action or page of the event: the offer comes late, never not at all.
    """
    seconds = max(0.0, (at - timezone.now()).total_seconds()) + 1  # a second late: the grace is over
    if settle_withdrawals_task.app.conf.task_always_eager:
        if not getattr(settings, "WITHDRAWAL_GRACE_TIMER", True):
            return  # the test suite's default: a ten-minute timer would fire in another test's middle
        timer = threading.Timer(seconds, _settle_in_thread, args=(tournament_id,))
        timer.daemon = True
        timer.start()
        return
    later(settle_withdrawals_task, tournament_id, countdown=seconds)


def grace_minutes() -> int:
    return int(WITHDRAWAL_GRACE.total_seconds() // 60)


def settle_withdrawals(tournament: Tournament, now=None) -> list[str]:
    """End every grace that has run out and offer the freed places; returns email errors.

    The job scheduled at each withdrawal calls it when its grace ends (:func:`schedule_settling`); the
    registration actions and pages call it too, so a job lost with its process (a restart)
    delays the offer only until the event's registrations are next looked at.
    """
    now = now or timezone.now()
    if not in_grace(tournament).filter(undo_until__lte=now).exists():
        return []
    with transaction.atomic():
        _lock(tournament)
        ended = in_grace(tournament).select_for_update().filter(undo_until__lte=now)
        count = ended.update(undo_until=None)
    if not count or started(tournament):
        return []
    return offer_free_places(tournament, None, settle=False)


def application_token(reg: Registration) -> str:
    """The signed key of an application's own page: whoever has the email may see and withdraw it."""
    return signing.Signer(salt=APPLICATION_SALT).sign(str(reg.pk))


def application_for(tournament: Tournament, token: str) -> Registration | None:
    """The application a token names in ``tournament``; None when forged or of another event."""
    try:
        pk = int(signing.Signer(salt=APPLICATION_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return tournament.registrations.filter(pk=pk).first()


def withdrawable(reg: Registration) -> bool:
    """The applicant may still withdraw: the application is open, or entered and not yet withdrawn."""
    return reg.status in (*OPEN_STATES, RegistrationStatus.APPROVED)


def offer_free_places(tournament: Tournament, user=None, *, settle: bool = True) -> list[str]:
    """Offer free places to the waiting list, first come first served; returns email errors.

    Called when a place frees up: an application refused or cancelled, an entry
    withdrawn before round 1 (:func:`tournaments.entries.status.withdraw`), the
    entry limit raised, a withdrawal's grace ended (:func:`settle_withdrawals`).
    Without organiser approval the offered applicant is entered at once.
    """
    errors = settle_withdrawals(tournament) if settle else []
    offered: list[tuple[Registration, str]] = []
    with transaction.atomic():
        tournament = _lock(tournament)
        for reg in waitlist(tournament):
            if not has_place(tournament):
                break
            _move(reg, user, RegistrationStatus.PENDING, "registration.offer")
            if not tournament.registration_approval and _enter_if_known(reg, user):
                offered.append((reg, "approved"))
            else:
                offered.append((reg, "offered"))
    return errors + [e for e in (_email(reg, kind) for reg, kind in offered) if e]


def set_open(tournament: Tournament, user, is_open: bool) -> None:
    """Open or close self-registration (audited)."""
    if not allowed(user, "tournament.edit", tournament):
        raise PermissionDenied
    before = {"registration_open": tournament.registration_open}
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=is_open)
    tournament.registration_open = is_open
    invalidate(tournament.pk)  # update() sends no signal
    action = "registration.open" if is_open else "registration.close"
    audit.record(user, tournament, action, tournament, before, {"registration_open": is_open})
    update_status(tournament, user)
    invalidate(tournament.pk)  # the public overview shows the "Register" link
