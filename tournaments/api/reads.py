"""The collections anyone may read: entries, published rounds, matches — flat or under a tournament.

``/api/entries/?tournament=<slug>`` and ``/api/tournaments/<slug>/entries/`` are the
same list (the nested route fixes the filter). Drafts never appear
(``tournaments.visibility``); unreleased tournaments only for their officials.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework import viewsets

from ..models import Entry, Match, Round
from ..permissions import visible_tournaments
from ..visibility import public_matches, public_rounds
from .filters import EntryFilter, MatchFilter, RoundFilter
from .serializers import EntrySerializer, MatchSerializer, RoundSerializer


class NestedUnderTournament:
    """Narrows the queryset to the tournament of the nested route (404 when not visible)."""

    tournament_path = "tournament"

    def tournament(self):
        slug = self.kwargs.get("tournament_slug")
        if slug is None:
            return None
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(visible_tournaments(self.request.user), slug=slug)
        return self._tournament

    def visible(self, qs):
        tournament = self.tournament()
        if tournament is not None:
            return qs.filter(**{self.tournament_path: tournament})
        return qs.filter(**{f"{self.tournament_path}__in": visible_tournaments(self.request.user)})


class EntryViewSet(NestedUnderTournament, viewsets.ReadOnlyModelViewSet):
    serializer_class = EntrySerializer
    filterset_class = EntryFilter

    def get_queryset(self):
        return self.visible(
            Entry.objects.select_related("player", "section", "tournament")
        ).order_by("tournament_id", "draw_number", "id")


class RoundViewSet(NestedUnderTournament, viewsets.ReadOnlyModelViewSet):
    serializer_class = RoundSerializer
    filterset_class = RoundFilter

    def get_queryset(self):
        return (
            public_rounds(self.visible(Round.objects.all()))
            .select_related("section", "tournament")
            .prefetch_related("matches__round__tournament", "matches__entry_a__player", "matches__entry_b__player")
            .order_by("tournament_id", "section__order", "number")
        )


class MatchViewSet(NestedUnderTournament, viewsets.ReadOnlyModelViewSet):
    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    tournament_path = "round__tournament"

    def get_queryset(self):
        return (
            public_matches(self.visible(Match.objects.all()))
            .select_related("round__tournament", "entry_a__player", "entry_b__player")
            .order_by("round__tournament_id", "round__number", "table", "id")
        )
