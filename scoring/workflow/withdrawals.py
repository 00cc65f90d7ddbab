"""Leaving the event: a withdrawn player's pending matches settled, past ones voided, an entry removed."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments import audit
from tournaments import cache as page_cache
from tournaments.access.permissions import (
    allowed,
)
from tournaments.access.visibility import is_public_round
from tournaments.models import (
    Entry,
    EntryStatus,
    Match,
    ResultKind,
    ResultStatus,
    Round,
)
from tournaments.rounds.pairing_manager import redraw, withdrawn
from tournaments.rounds.pairing_manager.systems import fixed_schedule
from tournaments.rounds.swiss.requests import drop_byes_of_a_leaver
from tournaments.validation import match_spec

from .base import lock_match, refuse
from .kinds import record_kind

SETTLE_CHOICES = withdrawn.SETTLE_CHOICES


def settle_pending(entry: Entry, user, how: str, reason: str) -> list[Match]:
    """Settle every unfinished match of ``entry`` in published rounds: a forfeit to the
    opponent, or void. Byes are voided (a leaving player keeps no bye). Runs inside the
    caller's transaction; each match is locked and audited through the one workflow.
    Registered with :func:`tournaments.rounds.pairing_manager.withdrawn.register_settler`, so
    a withdrawal from the desk, the entries page or the API settles the same way, and so does
    a later Scheveningen stage drawn after the withdrawal (it seats him: his board is fixed).

    In a fixed schedule (round robin, Scheveningen: rounds drawn in advance — the whole
    schedule, or a team knockout's stage — and a draft never paired again) the matches of
    draft rounds are settled too, the same way, so every later round can be published and
    closed without the director recording each forfeit by hand; the result shows when its
    round is published, and is announced then (:mod:`tournaments.events` holds back every
    event about a draft's match, and the round's publication sends its settled results after
    ``round.published``). A cup's bracket is such a schedule too: his opponent in a draft
    stage goes through. In a Swiss a draft is paired again without the player instead
    (:mod:`tournaments.rounds.pairing_manager.redraw`, called after this by the withdrawal and
    by :func:`remove_entry`)."""
    if how not in SETTLE_CHOICES:
        raise refuse("settle_choice", "choice")
    reason = reason.strip() or _("withdrawn")
    settled = []
    pending = Match.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry),
        result_status__in=[ResultStatus.PENDING, ResultStatus.REPORTED],
    ).select_related("round").order_by("round__number", "table")
    scheduled = fixed_schedule(entry.tournament)
    pending = list(pending)
    drafts = {m.round_id for m in pending if not is_public_round(m.round)} if scheduled else set()
    if drafts:
        # The drafts' rows are held until this commits. A publication of one of them at the
        # same moment locks that row too, so it waits, then finds these results settled and
        # announces them (tournaments.events). Unheld, it could commit between the settling
        # and this commit, find nothing settled, and the result would never be announced.
        list(Round.objects.select_for_update().filter(pk__in=drafts).order_by("pk").values_list("pk", flat=True))
    for m in pending:
        if not is_public_round(m.round) and not scheduled:
            continue  # a draft is re-paired without the player (not paired after withdrawal)
        match = lock_match(m.pk, scheduled_draft=scheduled)
        # A cup's match is never void: his opponent goes through (see record_kind).
        if match.is_bye or (how == withdrawn.SETTLE_VOID and not match_spec(match).must_decide):
            record_kind(match, user, ResultKind.VOID, None, reason)
        else:
            winner = "b" if match.entry_a_id == entry.pk else "a"
            record_kind(match, user, ResultKind.FORFEIT, winner, reason)
        settled.append(match)
    return settled


def void_past(entry: Entry, user, reason: str) -> list[Match]:
    """Void every confirmed result of ``entry`` (a disqualification whose past results go)."""
    voided = []
    done = Match.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry), result_status=ResultStatus.CONFIRMED
    ).exclude(result_kind=ResultKind.VOID)
    for m in done:
        match = lock_match(m.pk)
        record_kind(match, user, ResultKind.VOID, None, reason)
        voided.append(match)
    return voided


@transaction.atomic
def remove_entry(
    entry: Entry, user, *, how: str, reason: str, past: str = "keep",
    settle: str = withdrawn.SETTLE_FORFEIT,
) -> Entry:
    """Disqualify (``how="disqualified"``) or remove (``"removed"``) a player (Part 9: "дисквалификация,
    удаление с соревнований"): remaining matches forfeited (or void), past results kept or
    voided by the director's choice; withdrawn so never paired again; audited; marked."""
    if not allowed(user, "sanction.record", entry.tournament):
        raise PermissionDenied
    if not reason.strip():
        raise refuse("sanction_reason", "reason_required")
    if past not in ("keep", "void"):
        raise refuse("past_choice", "choice")
    if settle not in SETTLE_CHOICES:
        raise refuse("settle_choice", "choice")
    action = "entry.disqualify" if how == "disqualified" else "entry.remove_event"
    before = audit.snapshot(entry)
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.WITHDRAWN, removal=how, settle=settle)
    # No signal from update(): the standings' version moves here, or they would show him placed
    # (and paid) until an unrelated change (issue 43).
    page_cache.invalidate(entry.tournament_id)
    entry.status, entry.removal, entry.settle = EntryStatus.WITHDRAWN, how, settle
    audit.record(user, entry.tournament, action, entry, before, entry, reason.strip())
    if past == "void":
        void_past(entry, user, reason.strip())
    settle_pending(entry, user, settle, reason.strip())
    drop_byes_of_a_leaver(entry, user, reason.strip())  # a Swiss bye he asked for can never be given now
    redraw.pair_again_without(entry, user, reason.strip())  # a Swiss draft: paired without him
    return entry
