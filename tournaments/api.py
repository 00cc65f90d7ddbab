"""Read-only REST API of released tournaments: tournaments, entries, published rounds, matches.

Drafts never appear (``tournaments.visibility``). Result actions (check, report,
confirm) belong to the result workflow: the scoring app extends
:class:`MatchViewSet` with them (``scoring/api.py``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from .models import Entry, Match, Round, Tournament
from .permissions import visible_tournaments
from .visibility import public_matches, public_rounds


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "starts_on", "ends_on", "venue", "variant", "scoring", "system",
            "match_format", "match_length", "fixed_games", "cube", "crawford", "holland",
            "beaver", "raccoon", "autodouble_limit", "max_cube", "status", "rounds_planned",
        ]


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.full_name")
    name_latin = serializers.CharField(source="player.latin_name")
    category = serializers.IntegerField(source="player.category")
    section = serializers.CharField(source="section.name", default=None)

    class Meta:
        model = Entry
        fields = ["id", "draw_number", "name", "name_latin", "category", "section", "status"]


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")

    class Meta:
        model = Match
        fields = [
            "id", "round", "table", "entry_a", "entry_b", "match_length", "result_status",
            "score_a", "score_b", "winner",
        ]


class RoundSerializer(serializers.ModelSerializer):
    section = serializers.CharField(source="section.name", default=None)
    matches = MatchSerializer(many=True)

    class Meta:
        model = Round
        fields = ["number", "section", "status", "match_length", "published_at", "matches"]


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    filterset_fields = ["status", "system", "variant"]

    def get_queryset(self):
        return visible_tournaments(self.request.user).order_by("-starts_on", "name")

    @extend_schema(responses=EntrySerializer(many=True))
    @action(detail=True)
    def entries(self, request, slug=None):
        tournament = self.get_object()
        entries = tournament.entries.select_related("player", "section").order_by("draw_number", "id")
        return Response(EntrySerializer(entries, many=True).data)

    @extend_schema(responses=RoundSerializer(many=True))
    @action(detail=True)
    def rounds(self, request, slug=None):
        tournament = self.get_object()
        rounds = public_rounds(tournament.rounds.all()).select_related("section").prefetch_related("matches__round")
        return Response(RoundSerializer(rounds.order_by("section__order", "number"), many=True).data)


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = MatchSerializer
    filterset_fields = ["round__number", "result_status"]

    def get_queryset(self):
        return public_matches(
            Match.objects.filter(round__tournament__in=visible_tournaments(self.request.user))
        ).select_related("round")
