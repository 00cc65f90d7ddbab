"""Publishing a draft, and throwing one away (never silently with its results)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import Round, RoundStatus

from .checks import guard_results
from .edits import editable
from .generate import audit
from .reading import rounds_of
from .refusals import refuse


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
    with transaction.atomic():
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
