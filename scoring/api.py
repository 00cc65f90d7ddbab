"""The result workflow over the REST API: check, report and confirm, through the same code as the pages.

Extends the read-only match endpoints of :mod:`tournaments.api`; every refusal
of the workflow becomes an HTTP answer with its code and a clear message.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.api import MatchViewSet
from tournaments.apihttp.errors import ApiProblem
from tournaments.validation import validate_result
from zarik.i18n import current_language

from . import services
from .workflow_problems import workflow_problem


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
                workflow_problem("no_score").message(current_language()), code="workflow.no_score"
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


class ReportSerializer(ResultCheckSerializer):
    version = serializers.IntegerField(min_value=1, help_text="the match version you saw (optimistic concurrency)")
    confirm = serializers.BooleanField(default=False, help_text="officials only: enter it confirmed")
    reason = serializers.CharField(default="", allow_blank=True, help_text="required to correct a confirmed result")


class ConfirmSerializer(serializers.Serializer):
    result = serializers.IntegerField(min_value=1)
    version = serializers.IntegerField(min_value=1)


class ResultOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField()
    score_a = serializers.IntegerField()
    score_b = serializers.IntegerField()
    match_version = serializers.IntegerField(source="match.version")


class MatchWorkflowViewSet(MatchViewSet):
    """``/api/matches/``: the read-only endpoints plus ``check/``, ``report/`` and ``confirm/``."""

    @extend_schema(request=ResultCheckSerializer, responses=VerdictSerializer)
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        """Would this result be accepted? Checks through the match-rules core; saves nothing."""
        match = get_object_or_404(
            self.get_queryset().select_related(
                "round__tournament", "round__section", "entry_a__section", "entry_a__player",
                "entry_b__player",
            ),
            pk=pk,
        )
        data = ResultCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        final = tuple(data.validated_data["final"]) if data.validated_data.get("final") else None
        verdict = validate_result(match, final=final, games=data.validated_data.get("games"))
        language = current_language()
        names = match.side_names(language)  # "Петров would have needed…", not "a would have…"
        return Response(verdict.as_dict(language, names))

    @extend_schema(request=ReportSerializer, responses={201: ResultOutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def report(self, request, pk=None):
        """Report (player) or enter (referee) a result: the same service as the pages."""
        match = get_object_or_404(self.get_queryset(), pk=pk)
        data = ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._run(
            lambda: services.submit_result(
                match.pk, request.user, version=v["version"],
                final=tuple(v["final"]) if v.get("final") else None, games=v.get("games"),
                confirm=v["confirm"], reason=v["reason"],
            ),
            status.HTTP_201_CREATED,
            names_of=match,
        )

    @extend_schema(request=ConfirmSerializer, responses=ResultOutSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def confirm(self, request, pk=None):
        """The opponent or an official confirms a reported result."""
        match = get_object_or_404(self.get_queryset(), pk=pk)
        data = ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._run(
            lambda: services.confirm_result(match.pk, v["result"], request.user, version=v["version"])
        )

    @staticmethod
    def _run(action_call, ok_status=status.HTTP_200_OK, names_of=None) -> Response:
        """Run a workflow service and map its refusals to problem details with the workflow's code.

        ``reason`` keeps the workflow's short kind of refusal ("stale", "duplicate", …).

        ``names_of``: the match whose players' names the rules' problems use for the
        sides; they are loaded only when there are problems to word.
        """
        try:
            result = action_call()
        except PermissionDenied as exc:
            raise ApiProblem(403, workflow_problem("forbidden")) from exc
        except services.InvalidResult as exc:
            language = current_language()
            names = names_of.side_names(language) if names_of is not None else None
            problems = [{"game": p.game, "code": p.code, "message": p.message(language, names)} for p in exc.problems]
            raise ApiProblem(
                400, exc.problem, reason=exc.code, problems=problems,
                errors={"result": [p["message"] for p in problems]},
            ) from exc
        except services.ResultError as exc:  # a stale version included: 409 with its own code
            raise ApiProblem(409, exc.problem, reason=exc.code) from exc
        result.match.refresh_from_db(fields=["version"])
        return Response(ResultOutSerializer(result).data, status=ok_status)
