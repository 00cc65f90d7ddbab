"""The club's log for its organisers: the audit lines about the club and its people, outside any event.

Club business is audited with no tournament (``tournament=None``): members added, ended and
imported, a member's details edited, two players merged (``player.merge``, which keeps both
records as they were). Those lines were visible only in the back office; the organisers of
the clubs involved need them here (issue 49). A line belongs to the club when its object is
the club, one of its memberships, or a player who is or was its member — after a merge the
kept player holds every club's memberships, so each club involved sees the merge.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from clubs.models import Club
from tournaments.access.permissions import require
from tournaments.models import AuditEntry

PER_PAGE = 100
#: The object types of club business and how an object of each is the club's.
CLUB_OBJECTS = ("club", "membership", "player")


def club_entries(club: Club):
    """The club's audit lines, newest first (one query; the ids are read in two small ones)."""
    players = [str(pk) for pk in club.memberships.values_list("player_id", flat=True).distinct()]
    memberships = [str(pk) for pk in club.memberships.values_list("pk", flat=True)]
    about = (
        Q(object_type="club", object_id=str(club.pk))
        | Q(object_type="membership", object_id__in=memberships)
        | Q(object_type="player", object_id__in=players)
    )
    return (
        AuditEntry.objects.filter(about, tournament__isnull=True)
        .select_related("user__player")
        .order_by("-at", "-pk")
    )


@login_required
def club_log(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    require(request.user, "club.manage", club)
    page = Paginator(club_entries(club), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "clubs/club/log.html", {"club": club, "page": page})
