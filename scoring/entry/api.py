"""The result workflow over the REST API: check, report, confirm, dispute, ruling, appeal, jury decision.

Everything goes through :mod:`scoring.workflow`, the same code as the pages
(permissions, refusals, audit, events). Answers name the players.

Extends the read-only match endpoints of :mod:`tournaments.api`; every refusal
of the workflow becomes an HTTP answer with its code and a clear message.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from scoring import workflow
from scoring.entry.api_state import MatchStateSerializer, match_etag
from scoring.entry.forms import MAX_CLOCK, MAX_MINUTES_LATE
from scoring.live.api import LiveBoardActions
from scoring.models import Dispute, Outcome, Sanction, SanctionKind
from scoring.templatetags.people import raiser
from scoring.workflow.problems import workflow_problem
from tournaments.access.permissions import allowed, official_roles, side_of
from tournaments.access.visibility import is_public_round
from tournaments.api import MatchViewSet
from tournaments.api.http.errors import ApiProblem
from tournaments.api.problems import problems_response
from tournaments.api.serializers import MatchSerializer, ScoreOut
from tournaments.models import Match, ResultKind, Tournament
from tournaments.validation import validate_result
from zarik.i18n import current_language


class GameInSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=["a", "b"], allow_null=True, required=False)
    kind = serializers.CharField()
    cube = serializers.IntegerField(min_value=1, default=1)
    dropped = serializers.BooleanField(default=False)
    autodoubles = serializers.IntegerField(min_value=0, default=0)


@extend_schema_serializer(examples=[OpenApiExample("A final score", value={"final": [7, 4]}, request_only=True), OpenApiExample("Game by game", value={"games": [{"winner": "a", "kind": "oyun", "cube": 2}, {"winner": "b", "kind": "mars"}]}, request_only=True)])
class ResultCheckSerializer(serializers.Serializer):
    final = serializers.ListField(
        child=serializers.DecimalField(max_digits=5, decimal_places=1, min_value=0, coerce_to_string=False),
        min_length=2, max_length=2, required=False,
        help_text="halves (2.5) where a drawn game is worth ½",
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


@extend_schema_serializer(examples=[OpenApiExample("A player reports", value={"final": [7, 4], "version": 3}, request_only=True), OpenApiExample("A referee corrects a confirmed result", value={"final": [7, 5], "version": 5, "confirm": True, "reason": "score sheet signed 7:5"}, request_only=True)])
class ReportSerializer(ResultCheckSerializer):
    version = serializers.IntegerField(min_value=1, help_text="the match version you saw (optimistic concurrency)")
    confirm = serializers.BooleanField(default=False, help_text="officials only: enter it confirmed")
    reason = serializers.CharField(default="", allow_blank=True, help_text="required to correct a confirmed result")


@extend_schema_serializer(examples=[OpenApiExample("The opponent confirms", value={"result": 41, "version": 4}, request_only=True)])
class ConfirmSerializer(serializers.Serializer):
    result = serializers.IntegerField(min_value=1)
    version = serializers.IntegerField(min_value=1)


class PlayersSerializer(serializers.Serializer):
    a = serializers.CharField()
    b = serializers.CharField(required=False)


class ResultOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    state = serializers.CharField()
    score_a = ScoreOut()
    score_b = ScoreOut()
    kind = serializers.CharField()
    match_version = serializers.IntegerField(source="match.version")
    players = serializers.SerializerMethodField()

    def get_players(self, result) -> dict[str, str]:
        """The match's players by side, in the request's language."""
        return result.match.side_names(current_language())


@extend_schema_serializer(examples=[OpenApiExample("The opponent disputes", value={"result": 41, "version": 4, "reason": "It was 7:5, not 7:4"}, request_only=True)])
class DisputeInSerializer(serializers.Serializer):
    result = serializers.IntegerField(min_value=1)
    version = serializers.IntegerField(min_value=1)
    reason = serializers.CharField()


@extend_schema_serializer(examples=[OpenApiExample("Replace the result", value={"outcome": "replace", "ruling": "Score sheet says 7:5", "version": 6, "final": [7, 5]}, request_only=True), OpenApiExample("Uphold the report", value={"outcome": "uphold", "ruling": "The sheet confirms the report", "version": 6}, request_only=True)])
class RulingSerializer(ResultCheckSerializer):
    outcome = serializers.ChoiceField(choices=[Outcome.UPHOLD, Outcome.REPLACE, Outcome.VOID])
    ruling = serializers.CharField()
    version = serializers.IntegerField(min_value=1)

    def validate(self, attrs):
        if attrs["outcome"] == Outcome.REPLACE:
            return super().validate(attrs)
        return attrs


@extend_schema_serializer(examples=[OpenApiExample("The jury sustains", value={"outcome": "uphold", "decision": "Ruling sustained", "version": 7}, request_only=True)])
class DecisionSerializer(RulingSerializer):
    outcome = serializers.ChoiceField(choices=Outcome.values)
    ruling = None
    decision = serializers.CharField()


@extend_schema_serializer(examples=[OpenApiExample("A forfeit: B did not come", value={"kind": "forfeit", "winner": "a", "reason": "B absent at the start of the round", "version": 2}, request_only=True), OpenApiExample("A time forfeit at 4:3", value={"kind": "time_forfeit", "winner": "b", "played": [4, 3], "games_played": 6, "reason": "A's flag fell", "version": 3}, request_only=True)])
class KindResultSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[k for k in ResultKind.values if k != ResultKind.PLAYED])
    winner = serializers.ChoiceField(choices=["a", "b"], required=False, allow_null=True)
    played = serializers.ListField(
        child=serializers.DecimalField(max_digits=4, decimal_places=1, min_value=0, max_value=999, coerce_to_string=False),
        min_length=2, max_length=2, required=False,
        help_text="the score on the sheet when play stopped (a time forfeit)",
    )
    games_played = serializers.IntegerField(min_value=0, max_value=999, default=0)
    reason = serializers.CharField()
    version = serializers.IntegerField(min_value=1)


@extend_schema_serializer(examples=[OpenApiExample("A is 12 minutes late", value={"late_side": "a", "minutes": 12, "reason": "arrived 10:12", "version": 2}, request_only=True)])
class LatenessSerializer(serializers.Serializer):
    late_side = serializers.ChoiceField(choices=["a", "b"])
    minutes = serializers.IntegerField(min_value=0, max_value=MAX_MINUTES_LATE)
    reason = serializers.CharField(default="", allow_blank=True)
    version = serializers.IntegerField(min_value=1)


@extend_schema_serializer(examples=[OpenApiExample("Two minutes a point, 12 s delay", value={"minutes_per_point": 2, "delay_seconds": 12, "reason": "slow play", "version": 2}, request_only=True), OpenApiExample("Take the clocks off", value={"minutes_per_point": None, "version": 3}, request_only=True)])
class ClockSerializer(serializers.Serializer):
    minutes_per_point = serializers.IntegerField(
        min_value=1, max_value=MAX_CLOCK, allow_null=True, required=False
    )
    delay_seconds = serializers.IntegerField(min_value=0, max_value=MAX_CLOCK, default=0)
    increment_seconds = serializers.IntegerField(min_value=0, max_value=MAX_CLOCK, default=0)
    reason = serializers.CharField(default="", allow_blank=True)
    version = serializers.IntegerField(min_value=1)


@extend_schema_serializer(examples=[OpenApiExample("Appeal to the jury", value={"reason": "The director did not see the score sheet"}, request_only=True)])
class AppealSerializer(serializers.Serializer):
    reason = serializers.CharField()


class DisputeOutSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    match_version = serializers.IntegerField(source="match.version")
    raised_by = serializers.SerializerMethodField(help_text="who raised the dispute (a name)")
    raised_side = serializers.CharField(
        read_only=True, help_text="'a' or 'b' when a player raised it, else empty"
    )
    appealed_side = serializers.CharField(
        read_only=True, help_text="'a' or 'b' when a player appealed the ruling to the jury, else empty"
    )

    class Meta:
        model = Dispute
        fields = [
            "id", "match", "result", "state", "reason", "ruling", "ruling_outcome", "appeal_reason",
            "jury_decision", "jury_outcome", "decided_result", "match_version", "players",
            "raised_by", "raised_side", "appealed_side",
        ]

    def get_players(self, dispute) -> dict[str, str]:
        return dispute.match.side_names(current_language())

    def get_raised_by(self, dispute) -> str:
        return raiser(dispute)


class MatchWorkflowViewSet(LiveBoardActions, MatchViewSet):
    """Matches and their results. One match carries its ``result_state``: the pending report (for
    its players and officials), the confirmed result, an open dispute, and the ``actions`` the
    caller may take now (report, confirm, dispute), each with its address and body; ``live/``
    is the match's live board while it is recorded.
    """

    # The state is built by scoring.entry.api_state.

    def get_serializer_class(self):
        return MatchStateSerializer if self.action == "retrieve" else super().get_serializer_class()

    def get_object(self) -> Match:
        """The match; for the tournament's officials, a match of a draft round they can see in the
        round is a 409 ``workflow.draft_round`` (it exists, it is not open yet), not a 404."""
        try:
            return super().get_object()
        except Http404:
            self._draft_to_its_officials()
            raise

    def _draft_to_its_officials(self) -> None:
        """After a 404: a match of a draft round is a 409 ``workflow.draft_round`` to the
        tournament's officials (it exists, it is not open yet), not a 404."""
        match = Match.objects.select_related("round__tournament").filter(pk=self.kwargs["pk"]).first()
        if match is not None and not is_public_round(match.round) and official_roles(
            self.request.user, match.round.tournament
        ):
            raise ApiProblem(409, workflow_problem("draft_round", round=match.round.number)) from None

    def _party_first(self, action_name: str, players: bool = True) -> Match:
        """The caller's right to act on the match, checked before the body is read or its version
        compared (issue 47): someone else's match is a 403 whatever was sent. ``action_name`` is
        the permission row of the caller's role that must hold on the match's tournament for an
        official; with ``players``, its players pass here too (the service decides the rest)."""
        return self._party(self.get_object(), action_name, players)

    def _party(self, match: Match, action_name: str, players: bool = True) -> Match:
        """``match``, or the 403 of :meth:`_party_first` when the caller is not a party to it."""
        user = self.request.user
        party = players and side_of(user, match) is not None
        if not party and not allowed(user, action_name, match.round.tournament):
            raise ApiProblem(403, workflow_problem("forbidden"))
        return match

    @extend_schema(request=ResultCheckSerializer, responses=VerdictSerializer)
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None, **route):
        """Would this result be accepted? Checks through the match-rules core; saves nothing."""
        match = self.get_object()  # a draft round's match: 409 to its officials, 404 to others
        data = ResultCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        final = _final(data.validated_data)
        verdict = validate_result(match, final=final, games=data.validated_data.get("games"))
        language = current_language()
        names = match.side_names(language)  # "Петров would have needed…", not "a would have…"
        return Response(verdict.as_dict(language, names))

    def _locked_party(self, action_name: str) -> Match:
        """:meth:`_party_first` on the match locked for the action (in the transaction the caller
        has open): the service then works on this row instead of reading it again (issue 50:
        one read of the match per report or confirmation). A match the caller may not see is a
        404 as for a read (a draft's to its officials a 409), checked by the workflow's own lock."""
        try:
            match = workflow.lock_match(int(self.kwargs["pk"]), self.shows_match)
        except Http404:
            self._draft_to_its_officials()
            raise
        return self._party(match, action_name)

    @extend_schema(request=ReportSerializer, responses={201: ResultOutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def report(self, request, pk=None, **route):
        """Report (player) or enter (referee) a result: the same service as the pages."""

        def report():
            with transaction.atomic():
                match = self._locked_party("result.enter")
                data = ReportSerializer(data=request.data)
                data.is_valid(raise_exception=True)
                v = data.validated_data
                return workflow.report_on(
                    match, request.user, version=v["version"], final=_final(v), games=v.get("games"),
                    confirm=v["confirm"], reason=v["reason"],
                )

        return self._run(
            report,
            status.HTTP_201_CREATED,
            names_of=int(pk),
            tagged_for=request,
        )

    @extend_schema(request=ConfirmSerializer, responses=ResultOutSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def confirm(self, request, pk=None, **route):
        """The opponent or an official confirms a reported result."""

        def confirm():
            with transaction.atomic():
                match = self._locked_party("result.enter")
                data = ConfirmSerializer(data=request.data)
                data.is_valid(raise_exception=True)
                v = data.validated_data
                return workflow.confirm_on(match, v["result"], request.user, version=v["version"])

        return self._run(confirm, tagged_for=request)

    @extend_schema(request=DisputeInSerializer, responses={201: DisputeOutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def dispute(self, request, pk=None, **route):
        """A player contests a report (or a confirmed result): the director will rule."""
        self._party_first("match.see")
        data = DisputeInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._run(
            lambda: workflow.dispute_result(
                int(pk), v["result"], request.user, version=v["version"], reason=v["reason"],
                visible=self.shows_match,
            ),
            status.HTTP_201_CREATED,
            out=DisputeOutSerializer,
        )

    @extend_schema(request=KindResultSerializer, responses={201: MatchSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def settle(self, request, pk=None, **route):
        """The director settles a match not played out: ``forfeit`` (with ``winner``),
        ``double_forfeit``, ``time_forfeit`` (``winner``, optional ``played`` score) or ``void``.
        The score follows the tournament's forfeit rule; the same service as the desk page."""
        match = self._party_first("desk.run", players=False)
        data = KindResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data

        def settle():
            workflow.record_kind_result(
                match.pk, request.user, version=v["version"], kind=v["kind"],
                winner=v.get("winner"), reason=v["reason"],
                played=tuple(v["played"]) if v.get("played") else None,
                games_played=v["games_played"],
            )
            match.refresh_from_db()  # the service wrote a locked copy (a void returns no result)
            return match

        return self._run(settle, status.HTTP_201_CREATED, names_of=match.pk, out=MatchSerializer)

    @extend_schema(request=LatenessSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def lateness(self, request, pk=None, **route):
        """The director applies the lateness rule: penalty points to the opponent, or a forfeit."""
        match = self._party_first("desk.run", players=False)
        data = LatenessSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._run(
            lambda: workflow.apply_lateness(
                match.pk, request.user, version=v["version"], late_side=v["late_side"],
                minutes=v["minutes"], reason=v["reason"],
            ),
            names_of=match.pk,
            out=MatchSerializer,
        )

    @extend_schema(request=ClockSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def clock(self, request, pk=None, **route):
        """The director installs clocks on this match (``minutes_per_point`` null: takes them off)."""
        match = self._party_first("desk.run", players=False)
        data = ClockSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._run(
            lambda: workflow.install_clock(
                match.pk, request.user, version=v["version"],
                minutes_per_point=v.get("minutes_per_point"), delay_seconds=v["delay_seconds"],
                increment_seconds=v["increment_seconds"], reason=v["reason"],
            ),
            out=MatchSerializer,
        )

    @staticmethod
    def _run(
        action_call, ok_status=status.HTTP_200_OK, names_of=None, out=ResultOutSerializer, tagged_for=None
    ) -> Response:
        """Run a workflow service and map its refusals to problem details with the workflow's code.

        Every refusal has the API's one problem shape: ``code`` (``workflow.stale``, …) and
        ``problems`` (a refused result: each of the rules core's problems, with its game).

        ``names_of``: the id of the match whose players' names the rules' problems use for
        the sides; they are loaded only when there are problems to word.

        ``tagged_for``: the request of an action whose answer is about its match (``report/``,
        ``confirm/``: their ``Location`` is the match): the answer's ``ETag`` is made here from
        the match the service saved (:func:`api_state.match_etag`), not by the written-answer
        middleware reading the match again through its GET (issue 50: a third of a report).
        """
        try:
            result = action_call()
        except PermissionDenied as exc:
            raise ApiProblem(403, workflow_problem("forbidden")) from exc
        except workflow.InvalidResult as exc:
            language = current_language()
            names = (
                Match.objects.select_related("entry_a__player", "entry_b__player").get(pk=names_of).side_names(language)
                if names_of is not None
                else None
            )
            problems = [{"game": p.game, "code": p.code, "message": p.message(language, names)} for p in exc.problems]
            raise ApiProblem(
                400, exc.problem, problems=problems, errors={"result": [p["message"] for p in problems]},
            ) from exc
        except workflow.ResultError as exc:  # a stale version included: 409 with its own code
            problems_response([exc.problem])
        answer = Response(out(result).data, status=ok_status)  # the locked match: its version is current
        if tagged_for is not None:
            answer["ETag"] = match_etag(result.match, tagged_for)
        return answer


def _final(v) -> tuple[int | float, int | float] | None:
    """The posted final score as JSON numbers (5, or 2.5 where a drawn game is ½): the rules
    core words a refusal with the value as a score ("9.5:1"), whatever number type it came as."""
    if not v.get("final"):
        return None
    return tuple(int(x) if x == int(x) else float(x) for x in v["final"])


class DisputeViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A dispute over a match's result: its players, the director and the jury read it; the director
    rules, a player appeals, the jury decides."""

    serializer_class = DisputeOutSerializer
    permission_classes = [permissions.IsAuthenticated]
    queryset = Dispute.objects.select_related(
        "match__entry_a__player", "match__entry_b__player", "match__round__tournament"
    )

    def get_object(self):
        dispute = super().get_object()
        if not allowed(self.request.user, "dispute.see", dispute):
            raise PermissionDenied
        return dispute

    @extend_schema(request=RulingSerializer, responses=DisputeOutSerializer)
    @action(detail=True, methods=["post"])
    def rule(self, request, pk=None):
        """The director's ruling: uphold the report, replace it with another result, or void it."""
        data = RulingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return MatchWorkflowViewSet._run(
            lambda: workflow.rule_dispute(int(pk), request.user, outcome=v["outcome"], ruling=v["ruling"],
                                          version=v["version"], final=_final(v), games=v.get("games")),
            out=DisputeOutSerializer,
        )  # fmt: skip

    @extend_schema(request=AppealSerializer, responses=DisputeOutSerializer)
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        """A player appeals the director's ruling to the jury."""
        data = AppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return MatchWorkflowViewSet._run(
            lambda: workflow.appeal_dispute(int(pk), request.user, reason=data.validated_data["reason"]),
            out=DisputeOutSerializer,
        )

    @extend_schema(request=DecisionSerializer, responses=DisputeOutSerializer)
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        """The jury's decision on an appeal (final): sustain the ruling or set the outcome itself."""
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return MatchWorkflowViewSet._run(
            lambda: workflow.decide_appeal(int(pk), request.user, outcome=v["outcome"], decision=v["decision"],
                                           version=v["version"], final=_final(v), games=v.get("games")),
            out=DisputeOutSerializer,
        )  # fmt: skip


@extend_schema_serializer(examples=[OpenApiExample("A warning", value={"entry": 17, "kind": "warning", "reason": "noisy dice cup"}, request_only=True), OpenApiExample("A one-point penalty", value={"entry": 17, "kind": "penalty", "points": "1.0", "reason": "second warning"}, request_only=True)])
class SanctionSerializer(serializers.Serializer):
    """One decision of the director or the jury; a penalty's points come off the tournament score."""

    id = serializers.IntegerField(read_only=True)
    entry = serializers.IntegerField(source="entry_id", help_text="the entry's id in this tournament")
    player = serializers.CharField(source="entry.player.full_name", read_only=True)
    kind = serializers.ChoiceField(choices=SanctionKind.choices)
    points = serializers.DecimalField(
        max_digits=5, decimal_places=1, required=False, allow_null=True,
        help_text="a penalty's points, taken from the tournament score",
    )
    match = serializers.IntegerField(
        source="match_id", required=False, allow_null=True, help_text="for an annulled game"
    )
    game = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, help_text="the annulled game's number"
    )
    reason = serializers.CharField()
    decided_as = serializers.CharField(read_only=True)
    at = serializers.DateTimeField(read_only=True)


class TournamentSanctionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Sanctions of a tournament (warnings, penalty points, annulled games, disqualification): the
    director or the jury records them; refusals are 409 problems with a ``workflow.*`` code.
    """

    # The same scoring.workflow.record_sanction as the discipline page: permission row
    # sanction.record, the same refusals and audit entries.

    serializer_class = SanctionSerializer
    permission_classes = [permissions.IsAuthenticated]

    def _tournament(self):
        tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
        if not allowed(self.request.user, "sanction.record", tournament):
            raise ApiProblem(403, workflow_problem("forbidden"))
        return tournament

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no tournament
            return Sanction.objects.none()
        return Sanction.objects.filter(tournament=self._tournament()).select_related("entry__player")

    def retrieve(self, request, *args, **kwargs):
        """One sanction: whom it concerns, its kind, points, annulled game, reason and who decided it."""
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(request=SanctionSerializer, responses={201: SanctionSerializer})
    def create(self, request, tournament_slug=None):
        tournament = self._tournament()
        data = SanctionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry = tournament.entries.filter(pk=v["entry_id"]).first()
        if entry is None:
            problems_response([workflow_problem("not_entered")])
        match = None
        if v.get("match_id"):
            match = Match.objects.filter(pk=v["match_id"], round__tournament=tournament).first()
            if match is None:
                problems_response([workflow_problem("annul_match")])
        try:
            sanction = workflow.record_sanction(
                tournament, entry, request.user, kind=v["kind"], reason=v["reason"],
                points=v.get("points"), match=match, game=v.get("game"),
            )
        except PermissionDenied as exc:
            raise ApiProblem(403, workflow_problem("forbidden")) from exc
        except workflow.ResultError as exc:
            problems_response([exc.problem])
        return Response(SanctionSerializer(sanction).data, status=status.HTTP_201_CREATED)
