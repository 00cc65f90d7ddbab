"""Server-rendered pages: the home page and a tournament's page."""

from django.db.models import Count
from django.shortcuts import get_object_or_404, render

from .models import Match
from .permissions import visible_tournaments


def home(request):
    tournaments = visible_tournaments(request.user).annotate(
        entry_count=Count("entries", distinct=True)
    ).select_related("club")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_detail(request, slug: str):
    tournament = get_object_or_404(visible_tournaments(request.user), slug=slug)
    entries = tournament.entries.select_related("player", "section").order_by("draw_number", "id")
    rounds = list(tournament.rounds.select_related("section").order_by("section__order", "number"))
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("table", "id")
    )
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round_id, []).append(match)
    for rnd in rounds:
        rnd.match_list = by_round.get(rnd.pk, [])
    return render(
        request,
        "tournaments/detail.html",
        {"tournament": tournament, "entries": entries, "rounds": rounds},
    )
