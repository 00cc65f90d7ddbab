"""Read-only REST API of released tournaments, and a result check that saves nothing.

The check endpoint calls the same core function as forms and admin. Writes
(result reports and confirmations) belong to the result workflow: the scoring
app extends :class:`MatchViewSet` with them (``scoring/api.py``).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from zarik.i18n import current_language

from .match_spec import validate_result
from .models import Entry, Match, Round, Tournament
from .permissions import visible_tournaments


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


class GameInSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=["a", "b"], allow_null=True, required=False)
    kind = serializers.CharField()
    cube = serializers.IntegerField(min_value=1, default=1)
    dropped = serializers.BooleanField(default=False)
    autodoubles = serializers.IntegerField(min_value=0, default=0)


class ResultCheckSerializer(serializers.Serializer):
    final = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=2, max_length=2, required=False
    )
    games = GameInSerializer(many=True, required=False)

    def validate(self, attrs):
        if not attrs.get("final") and not attrs.get("games"):
            raise serializers.ValidationError(
                "Give the final score, the games, or both / Укажите итоговый счёт, партии или и то, и другое."
            )
        return attrs


class ProblemSerializer(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()


class VerdictSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    errors = ProblemSerializer(many=True)
    score = serializers.ListField(child=serializers.FloatField())
    winner = serializers.CharField(allow_null=True)
    crawford_game = serializers.IntegerField(allow_null=True)


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
        rounds = tournament.rounds.exclude(status="draft").select_related("section").prefetch_related("matches__round")
        return Response(RoundSerializer(rounds.order_by("section__order", "number"), many=True).data)


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = MatchSerializer
    filterset_fields = ["round__number", "result_status"]

    def get_queryset(self):
        return Match.objects.filter(
            round__tournament__in=visible_tournaments(self.request.user)
        ).exclude(round__status="draft").select_related("round")

    @extend_schema(request=ResultCheckSerializer, responses=VerdictSerializer)
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        """Would this result be accepted? Checks through the match-rules core; saves nothing."""
        match = get_object_or_404(self.get_queryset().select_related("round__tournament", "round__section", "entry_a__section"), pk=pk)
        data = ResultCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        final = tuple(data.validated_data["final"]) if data.validated_data.get("final") else None
        verdict = validate_result(match, final=final, games=data.validated_data.get("games"))
        return Response(verdict.as_dict(current_language()))
