"""``/api/tournaments/<slug>/team-match/``: the Scheveningen team match, the event's main result.

The same data as the pages' team block (:func:`tournaments.team_match.team_match_data`):
each team match's total and rounds (match wins, then points; team A first), its
board-by-board results, and why the line-ups cannot be paired yet (``problems``). Cached
like the standings until the tournament (its results or its teams) changes.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments import cache as page_cache
from tournaments.access.permissions import visible_tournaments
from tournaments.standings_service import load_event
from tournaments.team_match import team_match_data
from zarik.i18n import current_language

from .teams import LineupProblemSerializer


def _pair(help_text: str) -> serializers.ListField:
    """Team A's value, then team B's (numbers: whole, or exact halves)."""
    return serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2, help_text=help_text)


class TallySerializer(serializers.Serializer):
    match_points = _pair("team A's and team B's individual match wins (a level match ½ each)")
    points = _pair("team A's and team B's points scored (the tie-break)")
    played = serializers.IntegerField(help_text="individual matches with a result, forfeits included")
    pending = serializers.IntegerField(help_text="individual matches still without a result")
    forfeits = serializers.IntegerField(help_text="results by forfeit or double forfeit among them")
    leader = serializers.ChoiceField(
        choices=["a", "b"], allow_null=True, help_text="ahead on match wins, then points; null when level"
    )


class RoundTallySerializer(TallySerializer):
    round = serializers.IntegerField()


class BoardPlayerSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    name_latin = serializers.CharField(allow_blank=True)
    draw_number = serializers.IntegerField(allow_null=True)


class TeamSideSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = BoardPlayerSerializer(many=True)


class BoardResultSerializer(serializers.Serializer):
    board_a = serializers.IntegerField(help_text="team A's board (the grid's row)")
    board_b = serializers.IntegerField(help_text="team B's board (the grid's column)")
    entry_a = serializers.IntegerField()
    entry_b = serializers.IntegerField()
    round = serializers.IntegerField()
    score = _pair("team A's player's score first")
    outcome = serializers.ChoiceField(
        choices=["win", "draw", "loss", "double_forfeit", "pending", "void"],
        help_text="for team A's player",
    )
    kind = serializers.CharField(help_text="played, forfeit, double_forfeit, time_forfeit or void")


class TeamMatchSerializer(serializers.Serializer):
    team_a = TeamSideSerializer()
    team_b = TeamSideSerializer()
    total = TallySerializer()
    final = serializers.BooleanField(help_text="every individual match has its result")
    winner = serializers.ChoiceField(
        choices=["a", "b"], allow_null=True, help_text="once final; null while playing or when drawn"
    )
    rounds = RoundTallySerializer(many=True)
    boards = BoardResultSerializer(many=True)


class TeamMatchesSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    matches = TeamMatchSerializer(many=True, help_text="one per pairing of teams (one with two teams)")
    problems = LineupProblemSerializer(
        many=True, help_text="why the line-ups cannot be paired yet (uneven teams, an odd number of teams, a member who "
        "withdrew before the draw)"
    )


class TeamMatchViewSet(viewsets.GenericViewSet):
    """The team match of a Scheveningen tournament (empty ``matches`` for other systems)."""

    lookup_field = "slug"
    serializer_class = TeamMatchesSerializer

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    @extend_schema(responses=TeamMatchesSerializer)
    @action(detail=True, url_path="team-match", pagination_class=None)
    def team_match(self, request, slug=None):
        """Team score by match wins and by points, per round and in total, board by board."""
        tournament = self.get_object()
        language = current_language()
        data = page_cache.cached_fragment(
            tournament.pk,
            f"api-team-match-{language}",
            lambda: team_match_data(load_event(tournament), language),
        )
        return Response(data)
