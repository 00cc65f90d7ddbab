"""The home page: the tournaments this visitor may see.

A tournament's own page is its public overview (:func:`tournaments.public.views.overview`).
"""

from django.db.models import Count
from django.shortcuts import render

from tournaments.access.permissions import ORGANISER, organised_clubs, visible_tournaments


def home(request):
    tournaments = visible_tournaments(request.user).annotate(
        entry_count=Count("entries", distinct=True)
    ).select_related("club")
    organises = request.user.is_authenticated and (
        organised_clubs(request.user).exists()
        or request.user.official_roles.filter(role=ORGANISER).exists()
    )
    return render(
        request, "public/home.html", {"tournaments": tournaments, "organises": organises}
    )
