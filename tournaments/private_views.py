"""An entry's private page, opened by its signed link with no account (see :mod:`.private_links`)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from . import private_links
from .models import Match
from .visibility import public_matches


def _holder(token: str) -> private_links.LinkHolder:
    entry = private_links.entry_for(token)
    if entry is None:
        raise Http404
    return private_links.LinkHolder(entry)


def entry_page(request, token: str):
    """The player's own page: the current pairing (published rounds only) and past matches."""
    holder = _holder(token)
    entry = holder.entry
    matches = (
        public_matches(Match.objects.filter(round__tournament=entry.tournament))
        .filter(seats__entry=entry)
        .select_related("round", "entry_a__player", "entry_b__player")
        .order_by("-round__number")
    )
    return render(
        request,
        "private/entry.html",
        {"tournament": entry.tournament, "entry": entry, "matches": matches, "token": token},
    )
