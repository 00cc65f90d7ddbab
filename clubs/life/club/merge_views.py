"""The organiser's page for two players who are one person: compare side by side, then merge.

Step one shows both records side by side (names in both alphabets, clubs, year of birth,
email, events, rated matches); only "Merge" writes, through
:func:`tournaments.identity.services.merge` (which checks the right to, refuses what
cannot be merged, recomputes the ratings and audits). Player numbers are the ``#id``
the identity candidates and the search show.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from tournaments.access.permissions import require
from tournaments.identity.services import MergeRefused, may_merge, merge
from zarik.i18n import current_language

from .forms import MergePlayersForm


def _record(player: Player) -> dict:
    memberships = Membership.objects.filter(player=player).select_related("club").order_by("started_on")
    return {
        "player": player,
        "clubs": [(m.club.name, m.ended_on, m.is_current()) for m in memberships],
        "entries": player.entries.count(),
        "rated": sum(r.matches for r in player.ratings.all()),
    }


@login_required
def merge_players(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    require(request.user, "club.manage", club)
    form = MergePlayersForm(request.POST or request.GET or None)
    records = None
    if form.is_bound and form.is_valid():
        keep, gone = form.cleaned_data["keep"], form.cleaned_data["gone"]
        if not may_merge(request.user, keep, gone):
            raise PermissionDenied
        records = [_record(keep), _record(gone)]
        if request.method == "POST" and request.POST.get("confirm"):
            try:
                done = merge(keep, gone, request.user, form.cleaned_data["reason"])
            except MergeRefused as exc:
                form.add_error(None, exc.problem.message(current_language()))
            else:
                messages.success(request, _("Merged: %(name)s is one player now (ratings recomputed).")
                                 % {"name": done.player.full_name})  # fmt: skip
                return redirect("player-profile", player_id=done.player.pk)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "clubs/club/merge.html", {"club": club, "form": form, "records": records}, status=status)
