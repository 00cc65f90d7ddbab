"""Rounds over the API: read them (drafts for officials), generate, re-pair, publish, withdraw, close, delete.

Every action goes through :mod:`tournaments.rounds.pairing_manager` (or
:mod:`tournaments.rounds.flow` for closing) exactly as the organiser's pages do:
the same permission rows (``round.manage``, ``desk.run``), the same coded
refusals (answered 409 with their codes, in the request's language), the same
audit lines. Form-level checks (which entries may be ticked absent, which
players sit in the round) reuse the pages' forms, so the two cannot disagree.

Routes: ``/api/rounds/`` (list, ``?tournament=<slug>``), ``/api/rounds/<id>/``
(pairings with names and the stored explanation), its actions, and
``POST /api/tournaments/<slug>/generate/``.
"""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from tournaments.access.permissions import officiated_tournaments, require, visible_tournaments
from tournaments.models import Round, RoundStatus, Tournament
from tournaments.pairing.problems import PAIRING
from tournaments.rounds import flow as round_flow
from tournaments.rounds import generation as round_generation
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.forms import GenerateRoundForm, PairingChangeForm
from tournaments.standings_service import load_event, requested_byes, section_key
from zarik.i18n import current_language

from .http.problems import api_problem
from .problems import form_errors_response, problems_response
from .serializers import ReasonSerializer, ScoreOut, SideSerializer

# --------------------------------------------------------------------------------------------
# what a round looks like
# --------------------------------------------------------------------------------------------


class PairingSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="pk")
    table = serializers.IntegerField()
    player_a = SideSerializer(source="entry_a", read_only=True)
    player_b = SideSerializer(source="entry_b", read_only=True, allow_null=True)
    match_length = serializers.IntegerField(allow_null=True)
    result_status = serializers.CharField()
    score_a = ScoreOut(allow_null=True)
    score_b = ScoreOut(allow_null=True)
    result_kind = serializers.CharField()
    version = serializers.IntegerField(help_text="send it back with report/confirm")


class RoundOutSerializer(serializers.ModelSerializer):
    tournament = serializers.CharField(source="tournament.slug")
    section = serializers.CharField(source="section.name", default=None, allow_null=True)
    pairings = serializers.SerializerMethodField()
    notes = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "section",
            "status",
            "match_length",
            "published_at",
            "pairings",
            "notes",
        ]

    @extend_schema_field(PairingSerializer(many=True))
    def get_pairings(self, rnd) -> list:
        matches = sorted(rnd.matches.all(), key=lambda m: m.table)
        return PairingSerializer(matches, many=True).data

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_notes(self, rnd) -> list[str]:
        """The stored explanation's notes and problems, in the reader's language, and who sits
        the round out on their own request with the points (as the public pairings say it)."""
        expl = rnd.explanation or {}
        lang = current_language()
        shown = pm.names_of(rnd.tournament) if (expl.get("notes") or expl.get("problems")) else {}
        notes = pm.messages(expl.get("notes", []) + expl.get("problems", []), lang, shown)
        return notes + _requested_bye_notes(rnd, lang)


def _requested_bye_notes(rnd: Round, lang: str) -> list[str]:
    """The public pairings' line of requested byes (issue 27), read only for a round that has one."""
    if not any(isinstance(b, dict) and b.get("kind") == "requested" for b in (rnd.explanation or {}).get("byes") or ()):
        return []
    event = load_event(rnd.tournament, rounds=[rnd.pk])
    byes = requested_byes(event, rnd.number, section_key(rnd.section_id), lang)
    if not byes:
        return []
    who = ", ".join(f"{name} ({_('%(points)s pt') % {'points': points}})" for name, points in byes)
    return [f"{_('Not paired this round, on their own request:')} {who}"]


def _over_the_api(tournament: Tournament, problems) -> list:
    """The API's way out of a refusal whose catalogue text names a page: the open draw is held
    with ``draw/commit/`` then ``draw/perform/`` (issue 28: the 409 said "the Draw page")."""
    if not any(p.code == PAIRING.code("draw_required") for p in problems):
        return []
    here = reverse("api-tournament-detail", kwargs={"slug": tournament.slug})
    return [api_problem("draw_over_api", commit=f"{here}draw/commit/", perform=f"{here}draw/perform/", tournament=here)]


# --------------------------------------------------------------------------------------------
# what an action takes
# --------------------------------------------------------------------------------------------


@extend_schema_serializer(examples=[OpenApiExample("Pair the next round", value={}, request_only=True), OpenApiExample("A section, two players absent", value={"section": 2, "absent": [31, 44]}, request_only=True)])
class GenerateSerializer(serializers.Serializer):
    section = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="section id (required when the event has sections)",
    )
    absent = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="entry ids not paired this round (Swiss)",
    )
    half_bye = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="entry ids on a requested half-point bye (Swiss)",
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="needed to override a rule; audited"
    )
    background = serializers.BooleanField(required=False, default=False)


class GeneratedSerializer(serializers.Serializer):
    rounds = RoundOutSerializer(many=True)
    job = serializers.CharField(allow_null=True)
    status_url = serializers.CharField(allow_null=True)


@extend_schema_serializer(examples=[OpenApiExample("Swap two players of a draft", value={"action": "swap", "player_x": 12, "player_y": 17, "reason": "family"}, request_only=True)])
class ChangeSerializer(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=[PairingChangeForm.SWAP, PairingChangeForm.FIX],
        help_text="swap: the two players change tables; fix: they meet",
    )
    player_x = serializers.IntegerField(help_text="entry id")
    player_y = serializers.IntegerField(help_text="entry id")
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    discard_results = serializers.BooleanField(required=False, default=False)


@extend_schema_serializer(examples=[OpenApiExample("Delete a draft", value={"reason": "wrong section"}, request_only=True)])
class DeleteSerializer(ReasonSerializer):
    discard_results = serializers.BooleanField(required=False, default=False)


def _form_data(data: dict) -> dict:
    """JSON values as a bound form expects them (missing lists stay missing, ids as strings)."""
    out = {}
    for key, value in data.items():
        if value is None or value is False:
            continue
        out[key] = (
            [str(v) for v in value]
            if isinstance(value, list)
            else str(value)
            if value is not True
            else "on"
        )
    return out


# --------------------------------------------------------------------------------------------
# the endpoints
# --------------------------------------------------------------------------------------------


class RoundViewSet(mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """Rounds: published ones for everyone, drafts too for the tournament's officials, with their actions."""

    serializer_class = RoundOutSerializer

    def get_queryset(self):
        user = self.request.user
        qs = Round.objects.filter(tournament__in=visible_tournaments(user))
        qs = qs.filter(
            ~Q(status=RoundStatus.DRAFT) | Q(tournament__in=officiated_tournaments(user))
        )
        slug = self.request.query_params.get("tournament")
        if slug:
            qs = qs.filter(tournament__slug=slug)
        return (
            qs.select_related("tournament", "section")
            .prefetch_related("matches__entry_a__player", "matches__entry_b__player", "explanation_row")
            .order_by("tournament__slug", "section__order", "number")
        )

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    @extend_schema(
        parameters=[OpenApiParameter("tournament", OpenApiTypes.STR, description="tournament slug")]
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def _round(self, manage: str = "round.manage") -> Round:
        rnd = self.get_object()
        require(self.request.user, manage, rnd.tournament)
        return rnd

    def _answer(self, rnd: Round, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().filter(pk=rnd.pk).first()
        return Response(
            RoundOutSerializer(fresh, context={"request": self.request}).data, status=code
        )

    @extend_schema(
        request=ChangeSerializer,
        responses={200: RoundOutSerializer},
    )
    @action(detail=True, methods=["post"])
    def change(self, request, pk=None):
        """Re-pair a draft by hand: swap two players between tables, or make two players meet."""
        rnd = self._round()
        data = ChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        form = PairingChangeForm(rnd, _form_data(data.validated_data))
        if not form.is_valid():
            return form_errors_response(form)
        v = form.cleaned_data
        edit = pm.swap_players if v["action"] == PairingChangeForm.SWAP else pm.set_pairing
        try:
            edit(rnd, v["player_x"].pk, v["player_y"].pk, user=request.user, reason=v["reason"],
                 discard_results=v.get("discard_results", False))  # fmt: skip
        except pm.PairingRefused as exc:
            return problems_response(exc.problems)
        return self._answer(rnd)

    @extend_schema(request=None, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish a draft: players and the public see it (earlier drafts first)."""
        rnd = self._round()
        try:
            pm.publish_round(rnd, user=request.user)
        except pm.PairingRefused as exc:
            return problems_response(exc.problems)
        return self._answer(rnd)

    @extend_schema(request=ReasonSerializer, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def unpublish(self, request, pk=None):
        """Withdraw a publication (back to draft) while no result exists; the reason is audited."""
        rnd = self._round()
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            pm.unpublish_round(rnd, request.user, data.validated_data["reason"])
        except pm.PairingRefused as exc:
            return problems_response(exc.problems)
        return self._answer(rnd)

    @extend_schema(request=None, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Finish a published round whose results are all confirmed (as the desk does)."""
        rnd = self._round("desk.run")
        if rnd.status == RoundStatus.DRAFT:
            return problems_response([PAIRING.problem("close_not_published", round=rnd.number)])
        outcome = round_flow.close(rnd, request.user)
        if outcome == round_flow.ALREADY_CLOSED:  # as the desk says it: one answer everywhere
            return problems_response([PAIRING.problem("close_already_closed", round=rnd.number)])
        if outcome == round_flow.STILL_OPEN:
            tables = ", ".join(
                str(t) for t in round_flow.open_matches(rnd).values_list("table", flat=True)
            )
            return problems_response(
                [PAIRING.problem("close_open", round=rnd.number, tables=tables or "—")]
            )
        return self._answer(rnd)

    @extend_schema(
        parameters=[
            OpenApiParameter("reason", OpenApiTypes.STR, description="needed to discard results"),
            OpenApiParameter("discard_results", OpenApiTypes.BOOL),
        ],
        responses={204: None},
    )
    def destroy(self, request, *args, **kwargs):
        """Delete a draft (never a published round); results on it only with ``discard_results`` and a reason."""
        rnd = self._round()
        data = DeleteSerializer(data=request.data or request.query_params)
        data.is_valid(raise_exception=True)
        try:
            pm.delete_draft(rnd, user=request.user, discard_results=data.validated_data["discard_results"],
                            reason=data.validated_data["reason"])  # fmt: skip
        except pm.PairingRefused as exc:
            return problems_response(exc.problems)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PairingJobSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["QUEUED", "PROGRESS", "SUCCESS", "FAILURE"])
    done = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="the new rounds' ids (SUCCESS)")
    problems = serializers.ListField(child=serializers.CharField(), help_text="why it failed (FAILURE)")


class TournamentRoundActionsViewSet(viewsets.GenericViewSet):
    """``POST /api/tournaments/<slug>/generate/``: pair the next round (or the schedule) as drafts."""

    lookup_field = "slug"
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = GenerateSerializer

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    @extend_schema(
        request=GenerateSerializer,
        responses={
            201: GeneratedSerializer,
            202: GeneratedSerializer,
        },
        examples=[
            OpenApiExample(
                "Round with an absent player",
                value={"absent": [17], "reason": ""},
                request_only=True,
            )
        ],
    )
    @action(detail=True, methods=["post"])
    def generate(self, request, slug=None):
        """The same choices as the rounds page's form: section, absent and half-bye entries, reason."""
        tournament: Tournament = self.get_object()
        require(request.user, "round.manage", tournament)
        data = GenerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        form = GenerateRoundForm(tournament, _form_data(data.validated_data))
        if not form.is_valid():
            return form_errors_response(form)
        v = form.cleaned_data
        outcome = round_generation.generate(
            tournament, v.get("section"), request.user, reason=v["reason"],
            absent=[e.pk for e in v.get("absent") or ()], half_bye=[e.pk for e in v.get("half_bye") or ()],
            background=v["background"],
        )  # fmt: skip
        if outcome.problems:
            return problems_response([*outcome.problems, *_over_the_api(tournament, outcome.problems)])
        if outcome.job:
            url = request.build_absolute_uri(
                reverse("api-tournament-rounds-pairing-job", kwargs={"slug": tournament.slug, "job": outcome.job})
            )
            return Response({"rounds": [], "job": outcome.job, "status_url": url}, status=202)
        rounds = (
            Round.objects.filter(pk__in=outcome.rounds)
            .select_related("tournament", "section")
            .prefetch_related("matches__entry_a__player", "matches__entry_b__player", "explanation_row")
            .order_by("number")
        )
        out = RoundOutSerializer(rounds, many=True, context={"request": request}).data
        return Response({"rounds": out, "job": None, "status_url": None}, status=201)

    @extend_schema(responses={200: PairingJobSerializer})
    @action(detail=True, methods=["get"], url_path=r"pairing-jobs/(?P<job>[0-9a-zA-Z-]{1,64})", url_name="pairing-job")
    def pairing_job(self, request, slug=None, job=None):
        """A background pairing's progress: poll it after a 202 from ``generate``; ``rounds`` when done."""
        tournament: Tournament = self.get_object()
        require(request.user, "round.manage", tournament)
        state = round_generation.job_state(tournament, job)
        if state is None:
            raise NotFound
        language = current_language()
        return Response({**state, "problems": [p.message(language) for p in state["problems"]]})
