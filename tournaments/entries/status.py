"""An entry's status at the desk: check in, withdraw, reinstate — each audited.

One place for these moves, whoever makes them: the organiser's desk, the
entries page, a player's private link (check-in only) or the API. Who may is
the permissions table's ``entry.check_in`` and ``desk.run`` rows.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments import audit
from tournaments import cache as page_cache
from tournaments.access.permissions import allowed
from tournaments.events import emit
from tournaments.models import Entry, EntryStatus, Round, RoundStatus
from tournaments.registration import services as registration
from tournaments.rounds.pairing_manager.redraw import pair_again_without
from tournaments.rounds.pairing_manager.status import update_status
from tournaments.rounds.pairing_manager.withdrawn import (
    SETTLE_CHOICES,
    SETTLE_FORFEIT,
    settle_remaining,
)
from tournaments.rounds.swiss.requests import drop_byes_of_a_leaver
from zarik.i18n import current_language

from .problems import ENTRY


class EntryRefused(Exception):
    """A refusal about an entry, carrying an ``entry.*`` problem shown in the reader's language."""

    code = "state"

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.code)

    @property
    def message(self) -> str:
        return self.problem.message(current_language())

    def __str__(self) -> str:
        return self.problem.message("en")


def set_status(entry: Entry, user, status: str, action: str, reason: str = "") -> Entry:
    """Write the new status with its audit entry (callers have checked the right to).

    An ``update()`` sends no signal: the tournament's cache version is moved on here, so the
    standings (a withdrawn player wins no prize, a round robin may stop counting him) and
    every kept read of the entries change with the status (issue 43)."""
    before = audit.snapshot(entry)
    Entry.objects.filter(pk=entry.pk).update(status=status)
    page_cache.invalidate(entry.tournament_id)
    entry.status = status
    audit.record(user, entry.tournament, action, entry, before, entry, reason)
    return entry


@transaction.atomic
def check_in(entry: Entry, user) -> Entry:
    """The player is here: by the desk, or by the player (account or private link)."""
    if not allowed(user, "entry.check_in", entry):
        raise PermissionDenied
    if entry.status == EntryStatus.WITHDRAWN:
        raise EntryRefused(ENTRY.problem("withdrawn_check_in"))
    if entry.status == EntryStatus.CHECKED_IN:
        return entry
    set_status(entry, user, EntryStatus.CHECKED_IN, "entry.check_in")
    emit("entry.checked_in", entry.tournament_id, entry=entry.pk)
    return entry


@transaction.atomic
def withdraw(entry: Entry, user, reason: str = "", settle: str = SETTLE_FORFEIT) -> Entry:
    """The player leaves the event: not paired in later rounds; played results stay.

    A match of theirs still unplayed in a published round (in a fixed schedule, in a draft
    too) is settled as ``settle`` says (a forfeit to the opponent, or void), through the
    result workflow's settle step (:mod:`tournaments.rounds.pairing_manager.withdrawn`), audited.
    A Swiss draft that seats them is paired again without them
    (:mod:`tournaments.rounds.pairing_manager.redraw`).
    """
    if not allowed(user, "desk.run", entry.tournament):
        raise PermissionDenied
    if settle not in SETTLE_CHOICES:
        raise EntryRefused(ENTRY.problem("settle_choice", value=settle))
    was_in = entry.status != EntryStatus.WITHDRAWN
    set_status(entry, user, EntryStatus.WITHDRAWN, "entry.withdraw", reason)
    if was_in:
        emit("entry.withdrawn", entry.tournament_id, entry=entry.pk, reason=reason)
    Entry.objects.filter(pk=entry.pk).update(settle=settle)  # a stage drawn later follows it
    entry.settle = settle
    if was_in and not registration.started(entry.tournament):
        registration.offer_free_places(entry.tournament, user)  # before round 1 a place frees up
    settle_remaining(entry, user, settle, reason)
    drop_byes_of_a_leaver(entry, user, reason)  # a Swiss bye he asked for can never be given now
    # A Swiss draft seating him, paired again without him: the pages say so (redrawn_note).
    entry.redrawn = [r.number for r in pair_again_without(entry, user, reason)]
    update_status(entry.tournament, user)  # his section may be left with nobody to play
    return entry


def redrawn_note(entry: Entry) -> str:
    """What the desk and the entries page say after a withdrawal that paired drafts again."""
    numbers = getattr(entry, "redrawn", [])
    if not numbers:
        return ""
    return _("The draft of round %(rounds)s was paired again without %(name)s: check it, then publish it.") % {
        "rounds": ", ".join(map(str, numbers)), "name": entry.player.full_name,
    }


@transaction.atomic
def reinstate(entry: Entry, user, reason: str = "") -> Entry:
    if not allowed(user, "desk.run", entry.tournament):
        raise PermissionDenied
    set_status(entry, user, EntryStatus.REGISTERED, "entry.reinstate", reason)
    update_status(entry.tournament, user)  # a section with a player again is still to be played
    return entry



@transaction.atomic
def check_out(entry: Entry, user) -> Entry:
    """Undo a check-in (the desk ticked the wrong box): the player is registered, not present."""
    if not allowed(user, "desk.run", entry.tournament):
        raise PermissionDenied
    if entry.status != EntryStatus.CHECKED_IN:
        return entry
    return set_status(entry, user, EntryStatus.REGISTERED, "entry.check_out")


def round_paired(entry: Entry) -> bool:
    """A round that pairs this entry's section is drafted or published: its check-in counts now."""
    rounds = Round.objects.filter(
        tournament_id=entry.tournament_id, status__in=(RoundStatus.DRAFT, RoundStatus.PUBLISHED)
    )
    if entry.section_id:
        rounds = rounds.filter(Q(section_id=entry.section_id) | Q(section__isnull=True))
    return rounds.exists()


@transaction.atomic
def undo_own_check_in(entry: Entry, user) -> Entry:
    """The player takes back their own check-in (tapped by mistake, or they must leave)
    while the round it is for is not paired yet; after that only the desk changes it."""
    if not allowed(user, "entry.check_in", entry):
        raise PermissionDenied
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != EntryStatus.CHECKED_IN:
        return entry
    if round_paired(entry):
        raise EntryRefused(ENTRY.problem("check_in_paired"))
    return set_status(entry, user, EntryStatus.REGISTERED, "entry.check_out")
