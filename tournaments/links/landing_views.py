"""``/me/``: where a player lands after logging in (``LOGIN_REDIRECT_URL``).

A player with a match in a published, unfinished round goes straight to that
match's page (report or confirm the result); failing that, to the match whose
director's ruling they may still appeal to the jury (the book, Part 9); failing
that, to the page of the tournament they last entered; anyone else to the home page. A ``?next=`` given
to the login page still wins (Django's login view prefers it).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import redirect

from tournaments.models import Entry, Match, RoundStatus

from . import match_disputes


@login_required
def me(request):
    entries = Entry.objects.filter(player__user=request.user)
    match = (
        Match.objects.filter(Q(entry_a__in=entries) | Q(entry_b__in=entries))
        .filter(round__status=RoundStatus.PUBLISHED)
        .select_related("round__tournament")
        .order_by("-round__published_at", "-round__number", "-pk")
        .first()
    )
    if match is None:
        match = match_disputes.appealable_match(request.user)
    if match is not None:
        return redirect("result-match", slug=match.round.tournament.slug, match_id=match.pk)
    entry = entries.select_related("tournament").order_by("-tournament__starts_on", "-pk").first()
    if entry is not None:
        return redirect("tournament", slug=entry.tournament.slug)
    return redirect("home")
