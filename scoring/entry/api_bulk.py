"""``POST /api/rounds/<id>/results/``: a round's results in one call — the results grid's API twin.

A round of 8 tables cost 8 ``report/`` calls (5,000 at 10,000 players, issue 47).
Here the desk sends every table it has (the whole round, or a page of tables) and
each row goes through :func:`scoring.workflow.grid.enter_row`, the service the grid
page calls: checked by the rules core, saved in its own transaction with its match
lock and version, audited as a single entry is, or refused with its problems while
nothing of it is written. The answer says, per row, what became of it. An
``Idempotency-Key`` covers the whole batch (a retry replays the stored answer).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from scoring.entry.grid_problems import GRID
from scoring.workflow import grid
from scoring.workflow.problems import workflow_problem
from tournaments.access.permissions import allowed, can_view
from tournaments.access.visibility import is_public_round
from tournaments.api.http.errors import ApiProblem
from tournaments.models import Match, Round
from zarik.i18n import current_language

#: At most this many rows a call (a page of tables): a bigger round is sent in pages.
MAX_ROWS = 500


class RowInSerializer(serializers.Serializer):
    match = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the match id (a pairing's `match`)")
    final = serializers.ListField(
        child=serializers.DecimalField(max_digits=5, decimal_places=1, min_value=0, max_value=999, coerce_to_string=False),
        min_length=2, max_length=2, help_text="the final score, players a:b (halves where a drawn game is ½)",
    )  # fmt: skip
    version = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False,
        help_text="the match version you read (a pairing's `version`); a newer one refuses the row as stale",
    )  # fmt: skip


@extend_schema_serializer(examples=[
    OpenApiExample("A round of two tables", value={"results": [
        {"match": 41, "final": [5, 2], "version": 1}, {"match": 42, "final": [3, 5], "version": 1},
    ]}, request_only=True),
    OpenApiExample("Correcting a confirmed result", value={
        "results": [{"match": 41, "final": [5, 4], "version": 3}], "reason": "score sheet says 5:4",
    }, request_only=True),
])  # fmt: skip
class BulkResultsInSerializer(serializers.Serializer):
    results = RowInSerializer(many=True, min_length=1, max_length=MAX_ROWS)
    reason = serializers.CharField(
        default="", allow_blank=True, help_text="needed only to correct a confirmed result (audited)"
    )


class RowProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)


class RowOutSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=["saved", "unchanged", "refused"])
    version = serializers.IntegerField(allow_null=True, help_text="the match version now (send it to retry)")
    result = serializers.IntegerField(allow_null=True, help_text="the confirmed result's id when saved")
    problems = RowProblemSerializer(many=True)


class BulkResultsOutSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    saved = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    refused = serializers.IntegerField()
    rows = RowOutSerializer(many=True)


def _number(x):
    return int(x) if x == int(x) else float(x)


class RoundResultsViewSet(viewsets.GenericViewSet):
    """The results grid of a round over the API: many tables' results in one call."""

    queryset = Round.objects.select_related("tournament")
    serializer_class = BulkResultsInSerializer  # OPTIONS describes the body (DRF's metadata asks for it)
    permission_classes = [permissions.IsAuthenticated]

    def _round(self, pk) -> Round:
        """The round, with the caller's right to enter results checked before the body is read."""
        rnd = get_object_or_404(self.get_queryset(), pk=pk)
        if not can_view(self.request.user, rnd.tournament):
            raise ApiProblem(404, workflow_problem("match_missing"))
        if not allowed(self.request.user, "result.enter", rnd.tournament):
            raise ApiProblem(403, workflow_problem("forbidden"))
        if not is_public_round(rnd):
            raise ApiProblem(409, workflow_problem("draft_round", round=rnd.number))
        return rnd

    @extend_schema(request=BulkResultsInSerializer, responses=BulkResultsOutSerializer)
    @action(detail=True, methods=["post"])
    def results(self, request, pk=None):
        """Enter many tables' final scores at once, as the results grid does: a players' report with
        the same score is confirmed, any other score entered confirmed; each row saved or refused
        alone (``state``, ``problems``), nothing written for a refused row."""
        rnd = self._round(pk)
        data = BulkResultsInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rows = data.validated_data["results"]
        matches = {
            m.pk: m
            for m in Match.objects.filter(round=rnd, pk__in=[r["match"] for r in rows], entry_b__isnull=False)
            .select_related("round__tournament", "entry_a__player", "entry_b__player")
        }
        language, seen, out = current_language(), set(), []
        for row in rows:
            match = matches.get(row["match"])
            if match is None or row["match"] in seen:
                code = "duplicate_row" if row["match"] in seen else "not_in_round"
                problem = GRID.problem(code, match=row["match"], round=rnd.number)
                out.append(_row(row["match"], None, "refused", None, None, [_problem(problem, language)]))
                continue
            seen.add(match.pk)
            final = (_number(row["final"][0]), _number(row["final"][1]))
            outcome = grid.enter_row(match, request.user, final, version=row.get("version"),
                                     reason=data.validated_data["reason"])  # fmt: skip
            match.refresh_from_db(fields=["version"])
            names = match.side_names(language) if outcome.refused else None
            state = "refused" if outcome.refused else "unchanged" if outcome.unchanged else "saved"
            out.append(_row(
                match.pk, match.table, state, match.version, outcome.result.pk if outcome.result else None,
                [_problem(p, language, names) for p in outcome.problems],
            ))  # fmt: skip
        count = lambda state: sum(1 for r in out if r["state"] == state)  # noqa: E731
        return Response(BulkResultsOutSerializer({
            "round": rnd.pk, "saved": count("saved"), "unchanged": count("unchanged"),
            "refused": count("refused"), "rows": out,
        }).data)  # fmt: skip


def _row(match, table, state, version, result, problems) -> dict:
    return {"match": match, "table": table, "state": state, "version": version, "result": result,
            "problems": problems}  # fmt: skip


def _problem(problem, language: str, names=None) -> dict:
    return {"code": problem.code, "message": problem.message(language, names), "game": problem.game}
