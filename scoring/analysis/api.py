"""The API of match analysis: ``/api/matches/<id>/analysis/`` and ``/api/tournaments/<slug>/pr-table/``.

The same services as the pages (:mod:`scoring.analysis.services`): the same PR, the same
privacy rule (a side's figures only for readers who may see that player's PR), the same
audited re-run (POST, officials).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.access.permissions import allowed, can_view, visible_tournaments
from tournaments.access.visibility import can_see_round
from tournaments.api.problems import problems_response
from tournaments.models import Match
from zarik.i18n import current_language

from . import services
from .models import AnalysisState


class AnalysisReasonSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="analysis.unavailable, analysis.no_engine, analysis.no_record, analysis.import_failed, analysis.timeout, analysis.crashed, analysis.worker_lost")
    message = serializers.CharField()


class AnalysisDecisionSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    move = serializers.IntegerField(allow_null=True)
    kind = serializers.ChoiceField(choices=["move", "cube"])
    action = serializers.CharField()
    error = serializers.FloatField(help_text="equity lost (normalised, EMG)")
    played = serializers.CharField()
    best = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    position_id = serializers.CharField(allow_null=True, help_text="GNU Backgammon Position ID before the decision")
    match_id = serializers.CharField(allow_null=True, help_text="GNU Backgammon Match ID (with the dice for a move)")
    ply = serializers.IntegerField(allow_null=True, help_text="the record viewer's ?ply= of this move")


class AnalysisStatsSerializer(serializers.Serializer):
    pr = serializers.FloatField(allow_null=True, help_text="500 × (chequer + cube error) / (unforced moves + close cube decisions)")
    move_pr = serializers.FloatField(allow_null=True)
    cube_pr = serializers.FloatField(allow_null=True)
    decisions = serializers.IntegerField()
    unforced_moves = serializers.IntegerField()
    close_cube_decisions = serializers.IntegerField()
    moves = serializers.IntegerField()
    cube_decisions = serializers.IntegerField()
    move_error_rate = serializers.FloatField(allow_null=True, help_text="mEMG per unforced move")
    cube_error_rate = serializers.FloatField(allow_null=True, help_text="mEMG per close cube decision")
    luck = serializers.FloatField()
    luck_rate = serializers.FloatField(allow_null=True)
    blunders = serializers.IntegerField()
    engine_error_rate = serializers.FloatField(
        allow_null=True, required=False, help_text="GNU Backgammon's own error rate (mEMG); PR × 2 equals it"
    )
    doubles = serializers.IntegerField()
    takes = serializers.IntegerField()
    passes = serializers.IntegerField()


class AnalysisSideSerializer(serializers.Serializer):
    name = serializers.CharField()
    player = serializers.IntegerField()
    visible = serializers.BooleanField(help_text="false: this player's PR is not shown to you")
    small = serializers.BooleanField(allow_null=True, help_text="fewer than 100 decisions")
    stats = AnalysisStatsSerializer(allow_null=True)
    worst = AnalysisDecisionSerializer(many=True)


class AnalysisPartialSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="the game GNU Backgammon stopped reading in")
    games_read = serializers.IntegerField(help_text="games it read to their end")
    games = serializers.IntegerField(help_text="games in the record")


class AnalysisSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    variant = serializers.CharField()
    engine = serializers.BooleanField(help_text="false: no engine for this variant (nardy)")
    available = serializers.BooleanField(help_text="false: GNU Backgammon is not installed")
    state = serializers.ChoiceField(choices=AnalysisState.values, allow_null=True)
    reason = AnalysisReasonSerializer(allow_null=True)
    plies = serializers.IntegerField()
    partial = AnalysisPartialSerializer(
        allow_null=True, help_text="set when the analysis stopped before the record's end: the PR covers only that part"
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    a = AnalysisSideSerializer(required=False, source="sides.a")
    b = AnalysisSideSerializer(required=False, source="sides.b")


class PrRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    visible = serializers.BooleanField()
    pr = serializers.SerializerMethodField()
    best = serializers.SerializerMethodField()
    matches = serializers.IntegerField()
    decisions = serializers.SerializerMethodField()
    small = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    depth = serializers.CharField(help_text="the analyses' depth in plies: \"0\", \"2\" or \"0/2\" when mixed")
    partial = serializers.IntegerField(help_text="analyses that stopped before the record's end")

    def _shown(self, row, value):
        return value if row.visible else None

    def get_pr(self, row) -> float | None:
        return self._shown(row, row.pr)

    def get_best(self, row) -> float | None:
        return self._shown(row, row.best)

    def get_decisions(self, row) -> int | None:
        return self._shown(row, row.decisions)

    def get_small(self, row) -> bool | None:
        return self._shown(row, row.small)

    def get_rounds(self, row) -> dict[str, float | None] | None:
        return self._shown(row, {str(n): row.round_pr(n) for n in sorted(row.rounds)})


class PrTableSerializer(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="analyses by state")
    rounds = serializers.ListField(child=serializers.IntegerField())
    rows = PrRowSerializer(many=True)


def _visible_match(request, pk) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "entry_a__player", "entry_b__player"), pk=pk
    )
    if not can_view(request.user, match.round.tournament) or not can_see_round(request.user, match.round):
        raise Http404
    return match


class MatchAnalysisViewSet(viewsets.GenericViewSet):
    """``/api/matches/<id>/analysis/``: GNU Backgammon's analysis of the match (GET), or queue it again (POST)."""

    serializer_class = AnalysisSerializer
    queryset = Match.objects.none()

    @extend_schema(responses=AnalysisSerializer, methods=["GET"])
    @extend_schema(request=None, responses={202: AnalysisSerializer}, methods=["POST"])
    @action(detail=True, methods=["get", "post"])
    def analysis(self, request, pk=None):
        """The state (queued, running, done, failed with its reason) and each side's PR you may see."""
        match = _visible_match(request, pk)
        if request.method == "POST":
            if not request.user.is_authenticated:
                raise permissions.exceptions.NotAuthenticated()
            if not allowed(request.user, "analysis.run", match):
                raise permissions.exceptions.PermissionDenied()
            row = services.request(match, request.user, reason="api")
            if row.state == AnalysisState.FAILED:
                problems_response([services.problem_of(row)], status=409)
            return Response(AnalysisSerializer(services.match_summary(match, request.user, current_language())).data, status=status.HTTP_202_ACCEPTED)
        return Response(AnalysisSerializer(services.match_summary(match, request.user, current_language())).data)


class TournamentPrViewSet(viewsets.GenericViewSet):
    """``/api/tournaments/<slug>/pr-table/``: every player's PR in the event (hidden ones as null)."""

    lookup_field = "slug"
    serializer_class = PrTableSerializer

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    @extend_schema(responses=PrTableSerializer)
    @action(detail=True, url_path="pr-table")
    def pr_table(self, request, slug=None):
        """PR over all decisions, best match PR, PR per round, decisions and the small-sample mark."""
        table = services.pr_table(self.get_object(), request.user, current_language())
        return Response(PrTableSerializer(table).data)
