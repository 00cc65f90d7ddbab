"""The one rule for draft rounds: a draft (unpublished) round is invisible and inert.

A round the organiser has generated but not published is still being worked on:
nobody but the tournament's officials may see its pairings, and nobody may
report, confirm or dispute a result on it (the result workflow refuses that in
:func:`scoring.workflow.lock_match`). Every public query — pages, the page
cache, live.json, the player's "my match", the REST API, the Excel export —
goes through :func:`public_rounds` / :func:`public_matches`, or through
:func:`tournaments.standings_service.load_event`, which reads published and
finished rounds only.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Match, Round, RoundStatus

from .permissions import official_roles

#: Round states nobody outside the tournament's officials may see.
HIDDEN_ROUND_STATUSES: tuple[str, ...] = (RoundStatus.DRAFT,)


def is_public_round(rnd: Round) -> bool:
    """True for a published or finished round: one that anyone may see."""
    return rnd.status not in HIDDEN_ROUND_STATUSES


def public_rounds(rounds: QuerySet | None = None) -> QuerySet:
    """The rounds anyone may see (``rounds`` narrows the starting queryset)."""
    qs = Round.objects.all() if rounds is None else rounds
    return qs.exclude(status__in=HIDDEN_ROUND_STATUSES)


def public_matches(matches: QuerySet | None = None) -> QuerySet:
    """The matches of rounds anyone may see."""
    qs = Match.objects.all() if matches is None else matches
    return qs.exclude(round__status__in=HIDDEN_ROUND_STATUSES)


def can_see_round(user, rnd: Round) -> bool:
    """A draft round is seen by the tournament's officials only (organiser, referee, jury)."""
    return is_public_round(rnd) or bool(official_roles(user, rnd.tournament))
