"""Publishing a draft, withdrawing a publication, and throwing a draft away.

Never silently with results: a publication is withdrawn only while no result
exists on the round, and a draft with results is deleted only when they are
discarded explicitly with a reason.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.events import emit
from tournaments.models import EntryStatus, ResultStatus, Round, RoundStatus
from tournaments.rounds.flow import close_round

from .checks import guard_results, matches_with_results
from .edits import editable
from .generate import audit
from .reading import rounds_of
from .refusals import refuse
from .status import update_status
from .systems import fixed_schedule


def publish_round(rnd: Round, *, user=None) -> Round:
    """Publish a draft: players and the public see it; earlier drafts must go first."""
    editable(rnd)
    earlier = (
        rounds_of(rnd.tournament, rnd.section)
        .filter(number__lt=rnd.number, status=RoundStatus.DRAFT)
        .first()
    )
    if earlier is not None:
        raise refuse("publish_order", round=earlier.number, next=rnd.number)
    gone = _withdrawn_seated(rnd)
    if gone:
        # A player withdrew (or was disqualified) after the draft was paired: published as is,
        # the match would wait forever for a player who is not coming.
        raise refuse("publish_withdrawn", round=rnd.number, players=tuple(gone))
    with transaction.atomic():
        # Two directors publishing at once: the second waits for the row, finds it published
        # and is told so (not_draft) — one publication, one audit line, one round of emails.
        editable(Round.objects.select_for_update(of=("self",)).get(pk=rnd.pk))
        rnd.status = RoundStatus.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        audit(
            user,
            rnd.tournament,
            "round.publish",
            rnd,
            before={"status": "draft"},
            after={"status": "published"},
        )
        update_status(rnd.tournament, user)
        emit("round.published", rnd.tournament_id, round=rnd.pk, number=rnd.number)
        if fixed_schedule(rnd.tournament):
            # Every match already settled (a withdrawal in a fixed schedule settles its drafts):
            # nothing is left to play, so the round closes now rather than wait for the desk.
            close_round(rnd, user)
    return rnd


def _withdrawn_seated(rnd: Round) -> list[str]:
    """The names of withdrawn players the draft still seats at an unsettled match, in table
    order (a fixed schedule's withdrawal settled theirs already: a forfeit or void)."""
    withdrawn = EntryStatus.WITHDRAWN
    names = []
    for m in (
        rnd.matches.filter(Q(entry_a__status=withdrawn) | Q(entry_b__status=withdrawn))
        .exclude(result_status=ResultStatus.CONFIRMED)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("table")
    ):
        for entry in (m.entry_a, m.entry_b):
            if entry is not None and entry.status == withdrawn:
                names.append(str(entry.player))
    return names


def unpublish_round(rnd: Round, user=None, reason: str = "") -> Round:
    """Withdraw a publication: the round is a draft again (players and the public no longer see it).

    Allowed only while nothing has been played on it: a published round with a
    reported or confirmed result (or a later round already published) is refused
    with a coded problem. The reason is required and audited.
    """
    if rnd.status != RoundStatus.PUBLISHED:
        raise refuse("unpublish_not_published", round=rnd.number, status=rnd.status)
    if not reason.strip():
        raise refuse("unpublish_needs_reason", round=rnd.number)
    later = (
        rounds_of(rnd.tournament, rnd.section)
        .filter(number__gt=rnd.number)
        .exclude(status=RoundStatus.DRAFT)
        .first()
    )
    if later is not None:
        raise refuse("unpublish_order", round=rnd.number, next=later.number)
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=rnd.pk)
        played = [m.table for m in matches_with_results(locked)]
        if played:
            raise refuse(
                "unpublish_results",
                round=rnd.number,
                count=len(played),
                tables=", ".join(map(str, played)),
            )
        # Compare and set: of two withdrawals at once, one moves the round and the other finds it
        # a draft already and is refused (issue 29: both answered 200 with two audit lines). The
        # conditional UPDATE decides on SQLite too, which has no row locks.
        moved = Round.objects.filter(pk=rnd.pk, status=RoundStatus.PUBLISHED).update(
            status=RoundStatus.DRAFT, published_at=None
        )
        if not moved:
            rnd.refresh_from_db(fields=["status", "published_at"])
            raise refuse("unpublish_not_published", round=rnd.number, status=rnd.status)
        locked.status = rnd.status = RoundStatus.DRAFT
        locked.published_at = rnd.published_at = None
        locked.save(update_fields=["status", "published_at"])  # the same values: signals drop the pages
        audit(
            user,
            rnd.tournament,
            "round.unpublish",
            rnd,
            before={"status": "published"},
            after={"status": "draft"},
            reason=reason.strip(),
        )
        update_status(rnd.tournament, user)
    return rnd


def delete_draft(
    rnd: Round, *, user=None, discard_results: bool = False, reason: str = ""
) -> None:
    """Throw a draft away (only drafts: a published round has been seen by the players).

    A draft with results entered on it is refused, unless ``discard_results``
    is given with a reason: the discarded results are then kept in the audit
    entry's before-state.
    """
    editable(rnd)
    later = (
        rounds_of(rnd.tournament, rnd.section)
        .filter(number__gt=rnd.number)
        .exclude(status=RoundStatus.DRAFT)
        .exists()
    )
    if later:
        raise refuse("delete_order", round=rnd.number)
    with transaction.atomic():
        discarded = guard_results(rnd, discard_results=discard_results, reason=reason)
        snapshot = {
            "number": rnd.number,
            "tables": list(rnd.matches.values_list("table", "entry_a_id", "entry_b_id")),
            "discarded_results": discarded,
        }
        audit(
            user, rnd.tournament, "round.delete_draft", rnd, before=snapshot, reason=reason.strip()
        )
        rnd.delete()
        update_status(rnd.tournament, user)
