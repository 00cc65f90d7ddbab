"""The round flow: when a published round is complete, closing it, and what pages poll.

Rounds belong to tournaments, so this lives here; the result workflow (scoring)
calls :func:`close_when_complete` after each confirmation, and the organiser's
pages call :func:`close_round`. Nothing here knows how a result was reported.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.dispatch import Signal

from tournaments import audit
from tournaments import cache as page_cache
from tournaments.access.visibility import public_matches, public_rounds
from tournaments.events import emit
from tournaments.models import Match, ResultStatus, Round, RoundStatus, Tournament

logger = logging.getLogger(__name__)

#: Sent (inside the closing transaction) when a round is closed, with ``round`` and ``user``.
#: The tournament's status listens (:mod:`tournaments.rounds.pairing_manager.status`): the round
#: manager sits above this module, so the call is passed down as a receiver, not imported.
round_closed = Signal()
#: Sent (inside the transaction) when a finished round is opened again, with ``round`` and ``user``;
#: the tournament's status listens as it does to :data:`round_closed`.
round_reopened = Signal()


def open_matches(rnd: Round):
    """Matches of the round still without a confirmed result (byes need none)."""
    return rnd.matches.filter(entry_b__isnull=False).exclude(result_status=ResultStatus.CONFIRMED)


def round_complete(rnd: Round) -> bool:
    """True when the round has matches and every one of them has a confirmed result."""
    return rnd.matches.exists() and not open_matches(rnd).exists()


def announce_when_all_reported(match: Match) -> None:
    """Tell the organisers a round is ready to close when the report on its last unplayed match arrives.

    Call it before the match's own status changes: only the report that turns the last
    *pending* match into a reported one announces (a re-report or a correction does not),
    and only while some results still await confirmation — a round whose every result is
    confirmed closes itself and announces ``round.finished`` instead.
    """
    rnd = match.round
    if rnd.status != RoundStatus.PUBLISHED or match.result_status != ResultStatus.PENDING:
        return
    others = rnd.matches.filter(entry_b__isnull=False).exclude(pk=match.pk)
    if others.filter(result_status=ResultStatus.PENDING).exists():
        return
    emit("round.awaiting", rnd.tournament_id, round=rnd.pk, number=rnd.number,
         unconfirmed=others.exclude(result_status=ResultStatus.CONFIRMED).count() + 1)  # fmt: skip


#: What :func:`close` did: closed it now, found it closed already (by someone else), or left it open.
CLOSED, ALREADY_CLOSED, STILL_OPEN = "closed", "already_closed", "open"


def close_round(rnd: Round, user) -> bool:
    """Finish a published round if all its results are confirmed; True if it is now finished."""
    return close(rnd, user) != STILL_OPEN


def close(rnd: Round, user) -> str:
    """Finish a published round if all its results are confirmed: :data:`CLOSED` and friends.

    Called after every confirmation (inside its transaction). The round row is
    locked before counting, so of two last confirmations committing together
    the later one sees the earlier and closes the round; none is missed. Of two
    directors closing at once, one closes it and the other gets
    :data:`ALREADY_CLOSED`, so the desk can tell them.
    """
    with transaction.atomic():
        locked = Round.objects.select_for_update(of=("self",)).filter(pk=rnd.pk).order_by().first()
        if locked is None:
            return STILL_OPEN
        if locked.status == RoundStatus.FINISHED:
            rnd.status = RoundStatus.FINISHED
            return ALREADY_CLOSED
        if locked.status != RoundStatus.PUBLISHED or not round_complete(locked):
            return STILL_OPEN
        before = audit.snapshot(locked)
        Round.objects.filter(pk=locked.pk).update(status=RoundStatus.FINISHED)
        locked.status = rnd.status = RoundStatus.FINISHED
        audit.record(user, locked.tournament, "round.close", locked, before, locked)
        round_closed.send(sender=Round, round=locked, user=user)
        emit("round.finished", locked.tournament_id, round=locked.pk, number=locked.number)
        return CLOSED


def reopen_for(match: Match, user) -> bool:
    """Open the match's finished round again when a ruling sends the match back to be played.

    A void ruling, a jury's void or an annulled deciding game takes the result off a match
    of a round that may be closed already — even the last round of a finished event. The
    match must be played again (book, Part 9: the director's decision is carried out), so
    its round is not finished any more, and neither is the event while it waits: the round
    goes back to published, audited, and the tournament's status follows. When the replayed
    result is confirmed, :func:`close_when_complete` closes the round again. True if reopened.
    """
    rnd = match.round
    if match.result_status == ResultStatus.CONFIRMED or rnd.status != RoundStatus.FINISHED:
        return False
    before = audit.snapshot(rnd)
    if not Round.objects.filter(pk=rnd.pk, status=RoundStatus.FINISHED).update(status=RoundStatus.PUBLISHED):
        return False
    rnd.status = RoundStatus.PUBLISHED
    audit.record(user, rnd.tournament, "round.reopen", rnd, before, rnd)
    round_reopened.send(sender=Round, round=rnd, user=user)
    return True


def close_when_complete(match: Match) -> None:
    """Close the round if this was its last open match, without serialising every confirmation.

    If other matches look open in this transaction's snapshot, the round lock is not
    taken; instead the check is repeated after commit. Of several last confirmations
    committing together, the one committing last then sees all the others and closes
    the round, so a complete round is never left open.
    """
    rnd = match.round
    if rnd.status != RoundStatus.PUBLISHED:
        return
    if open_matches(rnd).exclude(pk=match.pk).exists():
        transaction.on_commit(lambda: _close_after_commit(rnd.pk))
    else:
        close_round(rnd, None)


def _close_after_commit(round_id: int) -> None:
    """One query while matches are open (the common case); the round itself only when none is."""
    try:
        still_open = (
            Match.objects.filter(round_id=round_id, entry_b__isnull=False)
            .exclude(result_status=ResultStatus.CONFIRMED)
            .exists()
        )
        rnd = None if still_open else Round.objects.filter(pk=round_id, status=RoundStatus.PUBLISHED).first()
        if rnd is not None:
            close_round(rnd, None)
    except Exception:  # the confirmation is committed; the desk can still close the round
        logger.exception("closing round %s after a confirmation failed", round_id)


def live_state(tournament: Tournament) -> dict[str, Any]:
    """A version stamp of what a public page shows: rounds, their status, the latest change.

    Cheap (three aggregate queries); pages poll it and reload when ``stamp`` changes.
    """
    rounds = public_rounds(Round.objects.filter(tournament=tournament))
    latest = rounds.order_by("-number", "-pk").values("number", "status", "published_at").first()
    counts = rounds.aggregate(
        published=Max("published_at"),
        finished=Max("number", filter=Q(status=RoundStatus.FINISHED)),
    )
    changed = public_matches(Match.objects.filter(round__tournament=tournament)).aggregate(
        at=Max("updated_at")
    )["at"]
    moments = [m for m in (changed, counts["published"]) if m is not None]
    last = max(moments) if moments else None
    data = {
        "round": latest["number"] if latest else None,
        "status": latest["status"] if latest else None,
        "rounds": rounds.count(),
        "finished": counts["finished"],
        "changed": last.isoformat() if last else None,
    }
    data["stamp"] = "|".join(
        str(data[k]) for k in ("round", "status", "rounds", "finished", "changed")
    )
    return data


def cached_live_state(tournament: Tournament) -> dict[str, Any]:
    """:func:`live_state` kept with the tournament's pages until a round or a result changes:
    every public pairings page carries the stamp, so it costs no query once cached.

    Like the standings, under a stream of results it is rebuilt at most once per
    ``STANDINGS_STALE_SECONDS``: a watching page then reloads at most that much later,
    instead of every page view waiting for a rebuild after every result."""
    return page_cache.cached_fragment(
        tournament.pk, "live-state", lambda: live_state(tournament), stale_ok=True, small=True
    )
