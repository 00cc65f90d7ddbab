"""A player's disputes and their appeal to the jury, the same for an account and a private link.

The book, Part 9 (``part9_competition_rules.ru.txt`` line 37): a player who
disagrees with the director's decision takes it to the jury, whose decision is
final. So a player must *see* the decision and be able to appeal it wherever
they follow their match: the logged-in match page (``result-match``, where
``/me/`` lands), the private link's match page (``/p/<token>/match/<id>/``) and
the private page itself (``/p/<token>/``). All three show the rows built here
and post the same form to :func:`appeal_posted`, which calls the one service
(:func:`scoring.workflow.appeal_dispute`) as the account or the link holder; the
permission row ``dispute.appeal`` and the service decide, nothing here does.

A refused appeal keeps what the player typed: in the form while an appeal is
still possible (an empty reason), otherwise (the window closed, already
appealed, another match's dispute) next to the problem, to copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.urls import reverse

from scoring import workflow
from scoring.models import Dispute, DisputeState
from scoring.workflow.problems import workflow_message
from tournaments.access.permissions import allowed, appeal_window_closed, side_of
from tournaments.models import Match

from .forms import PlayerAppealForm, posted_int

#: Everything a dispute row shows, loaded with it.
RELATED = (
    "result",
    "decided_result",
    "raised_by__player",
    "ruled_by__player",
    "appealed_by__player",
    "jury_by__player",
)


@dataclass
class Refused:
    """A refused appeal: the message, what was typed, which dispute it was for, the HTTP status."""

    message: str
    text: str
    dispute_id: int | None
    status: int
    form: PlayerAppealForm | None = None


def appeal_form(dispute_id: int, data=None) -> PlayerAppealForm:
    """The appeal form of one dispute; ids unique per dispute, as several may share a page."""
    return PlayerAppealForm(
        data, initial={"dispute": dispute_id}, auto_id=f"appeal-{dispute_id}-%s"
    )


def appeal_url(match: Match, token: str | None) -> str:
    """Where the appeal on ``match`` posts: the private link's address, or the account's."""
    if token:
        return reverse("private-appeal", kwargs={"token": token, "match_id": match.pk})
    return reverse("result-appeal", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})


def annotate(dispute: Dispute, match: Match, user, token: str | None, refused: Refused | None = None) -> Dispute:
    """What ``user`` sees of one dispute and may do with it (see the module's docstring)."""
    dispute.match = match  # the loaded match: the permission check reads its tournament
    ruled = dispute.state == DisputeState.RULED
    dispute.can_appeal = ruled and allowed(user, "dispute.appeal", dispute)
    minutes = match.round.tournament.dispute_window
    dispute.appeal_until = (
        dispute.ruled_at + timedelta(minutes=minutes) if ruled and minutes and dispute.ruled_at else None
    )
    closed = appeal_window_closed(dispute) if side_of(user, match) else None
    dispute.appeal_closed = workflow_message("appeal_window", minutes=closed) if closed else ""
    mine = refused is not None and refused.dispute_id == dispute.pk
    dispute.appeal_form = None
    dispute.refused = None
    if dispute.can_appeal:
        dispute.appeal_form = refused.form if mine and refused.form is not None else appeal_form(dispute.pk)
        dispute.appeal_url = appeal_url(match, token)
    if mine and (refused.form is None or not dispute.can_appeal):
        dispute.refused = refused
    return dispute


def match_disputes(match: Match, user, *, token: str | None = None, refused: Refused | None = None) -> list[Dispute]:
    """The match's disputes, newest first, each with its state, its decisions and the appeal."""
    return [
        annotate(d, match, user, token, refused)
        for d in match.disputes.select_related(*RELATED).order_by("-raised_at", "-pk")
    ]


def disputes_context(match: Match, user, *, token: str | None = None, refused: Refused | None = None) -> dict:
    """The match page's disputes, and a refusal no row of this match can show (another match's dispute)."""
    rows = match_disputes(match, user, token=token, refused=refused)
    shown = any(d.refused is not None or (refused and refused.form is d.appeal_form) for d in rows)
    return {"disputes": rows, "appeal_refused": None if shown else refused}


def entry_disputes(holder, matches: Sequence[Match], token: str) -> list[Dispute]:
    """Every dispute of the link holder's ``matches`` (one query), for their private page.

    Registered with :mod:`tournaments.links.match_disputes` (that app sits below this one).
    """
    by_id = {m.pk: m for m in matches}
    rows = Dispute.objects.filter(match_id__in=by_id).select_related(*RELATED).order_by("-raised_at", "-pk")
    return [annotate(d, by_id[d.match_id], holder, token) for d in rows]


def appealable_match(user) -> Match | None:
    """The signed-in player's latest match whose ruling they may still appeal (``/me/`` goes there)."""
    rows = (
        Dispute.objects.filter(state=DisputeState.RULED)
        .filter(Q(match__entry_a__player__user=user) | Q(match__entry_b__player__user=user))
        .select_related("match__round__tournament", "match__entry_a__player", "match__entry_b__player")
        .order_by("-ruled_at", "-pk")[:5]
    )
    return next((d.match for d in rows if allowed(user, "dispute.appeal", d)), None)


def appeal_posted(request, match: Match, user) -> tuple[Dispute | None, Refused | None]:
    """Appeal the posted dispute as ``user`` (an account or a link holder): the dispute, or why not."""
    form = appeal_form(posted_int(request.POST.get("dispute")) or 0, request.POST)
    text = request.POST.get("reason", "")
    if not form.is_valid():  # only a garbled dispute id: the reason is free text
        return None, Refused(workflow_message("dispute_missing"), text, None, 400)
    dispute_id = form.cleaned_data["dispute"]
    tournament = match.round.tournament
    if not Dispute.objects.filter(pk=dispute_id, match__round__tournament=tournament).exists():
        return None, Refused(workflow_message("dispute_missing"), text, None, 400)
    try:
        dispute = workflow.appeal_dispute(dispute_id, user, reason=form.cleaned_data["reason"])
    except PermissionDenied:
        return None, Refused(workflow_message("appeal_not_party"), text, dispute_id, 403)
    except workflow.ResultError as exc:
        if exc.code == "reason_required":
            form.add_error("reason", exc.message)
            return None, Refused(exc.message, text, dispute_id, 400, form=form)
        return None, Refused(exc.message, text, dispute_id, 409)
    return dispute, None
