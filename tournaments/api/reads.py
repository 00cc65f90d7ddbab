"""The collections anyone may read: entries, published rounds, matches — flat or under a tournament.

``/api/entries/?tournament=<slug>`` and ``/api/tournaments/<slug>/entries/`` are the
same list (the nested route fixes the filter). Drafts never appear
(``tournaments.access.visibility``); unreleased tournaments only for their officials.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import viewsets

from tournaments.access.permissions import official_roles, visible_tournaments
from tournaments.access.visibility import is_public_round, public_matches, public_rounds

from ..cache import complete_at_version
from ..models import Entry, Match, Round, Tournament
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

    def shows(self, tournament: Tournament) -> bool:
        """One row's check of :meth:`visible` (the nested route's tournament, released or
        officiated): a detail lookup by id then needs no subquery over every tournament."""
        nested = self.kwargs.get("tournament_slug")
        if nested is not None and nested != tournament.slug:
            return False
        return tournament.public or bool(official_roles(self.request.user, tournament))

    def visible(self, qs):
        tournament = self.tournament()
        if tournament is not None:
            return qs.filter(**{self.tournament_path: tournament})
        return qs.filter(**{f"{self.tournament_path}__in": visible_tournaments(self.request.user)})


class EntryViewSet(NestedUnderTournament, viewsets.ReadOnlyModelViewSet):
    """The entries of the tournaments you can see: player, section, draw number, status and rating at entry."""

    serializer_class = EntrySerializer
    filterset_class = EntryFilter

    def get_queryset(self):
        return self.visible(
            Entry.objects.select_related("player", "section", "tournament")
        ).order_by("tournament_id", "draw_number", "id")


class RoundViewSet(NestedUnderTournament, viewsets.ReadOnlyModelViewSet):
    """The published rounds of a tournament, each with its pairings (table, players, match id, version)."""

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
    """Matches of published rounds: the players, the table and the confirmed score."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    tournament_path = "round__tournament"

    def get_queryset(self):
        return (
            public_matches(self.visible(Match.objects.all()))
            .select_related("round__tournament", "entry_a__player", "entry_b__player")
            .order_by("round__tournament_id", "round__number", "table", "id")
        )

    def get_object(self) -> Match:
        """The match by id, its visibility checked on the row (the hot path of result entry:
        every report is preceded by this read)."""
        match = (
            Match.objects.select_related("round")  # the entries and players: complete_at_version
            .filter(pk=self.kwargs["pk"])
            .order_by()  # not Match's ordering: it joins the round, tournament and section to sort one row
            .first()
        )
        if match is None or not is_public_round(match.round):
            raise Http404
        complete_at_version(match)
        if not self.shows(match.round.tournament):
            raise Http404
        self.check_object_permissions(self.request, match)
        return match

    def shows_match(self, match: Match) -> bool:
        """The result services' ``visible`` check: the locked match's tournament is this
        caller's to see (its round being published is the services' own check)."""
        return self.shows(match.round.tournament)
