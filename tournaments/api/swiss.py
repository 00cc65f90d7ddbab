"""The director's Swiss options over the API, through the same forms and services as
``manage/swiss/`` (:mod:`tournaments.rounds.swiss.requests`): refusals are the same coded
409s, bad input the forms' 400s, every change audited.

* ``/api/tournaments/<slug>/forbidden-pairs/`` — list (officials), add, lift;
* ``/api/tournaments/<slug>/bye-requests/`` — list (officials; a player sees their
  own), ask (the organiser for anyone, a player for themselves), cancel;
* ``POST /api/tournaments/<slug>/qualify/`` — the top N into a new knockout cup (``reason`` to
  qualify before the Swiss is over; ``tie_decision`` for a place shared at the cut; answers
  ``stage`` ``cup``, or ``playoff`` when the play-off among the tied players was drawn first).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from tournaments.access.permissions import allowed, player_entry, require
from tournaments.rounds.pairing_manager.refusals import PairingRefused
from tournaments.rounds.swiss import requests as swiss_requests
from tournaments.rounds.swiss.forms import ByeRequestForm, ForbidPairForm, QualifyForm
from zarik.i18n import current_language

from ..models import ByeRequest, ForbiddenPair
from .errors import raise_form_errors
from .http.errors import ApiProblem
from .reads import NestedUnderTournament

MANAGE = "round.manage"
OFFICIATE = "tournament.officiate"


def _refused(exc: PairingRefused, **extra):
    """A 409 problem named by the first refusal, every refusal's code and message listed."""
    lang = current_language()
    problems = [{"code": p.code, "message": p.message(lang)} for p in exc.problems]
    raise ApiProblem(status.HTTP_409_CONFLICT, exc.problems[0], problems=problems, **extra)


@extend_schema_serializer(examples=[OpenApiExample("Sisters never meet", value={"entry_a": 17, "entry_b": 18, "reason": "sisters"}, request_only=True)])
class ForbiddenPairSerializer(serializers.ModelSerializer):
    class Meta:
        model = ForbiddenPair
        fields = ["id", "entry_a", "entry_b", "reason", "created_at"]
        read_only_fields = ["id", "created_at"]


@extend_schema_serializer(examples=[OpenApiExample("A bye in round 3", value={"entry": 17, "round": 3}, request_only=True)])
class ByeRequestSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_number", help_text="the round's number (1, 2, …), not its id")

    class Meta:
        model = ByeRequest
        fields = ["id", "entry", "round", "created_at"]
        read_only_fields = ["id", "created_at"]


@extend_schema_serializer(examples=[
    OpenApiExample("The top 8 play a knockout final", value={"top": 8, "name": "Final", "slug": "spring-open-final"}, request_only=True),
    OpenApiExample("A lot decides the place shared at the cut", value={"top": 8, "name": "Final", "slug": "spring-open-final", "tie_decision": "lot"}, request_only=True),
    OpenApiExample("A stated criterion decides it", value={"top": 8, "name": "Final", "slug": "spring-open-final", "tie_decision": "criterion", "tie_chosen": [41], "tie_note": "the higher rating"}, request_only=True),
])  # fmt: skip
class QualifySerializer(serializers.Serializer):
    section = serializers.IntegerField(required=False, allow_null=True)
    top = serializers.IntegerField(min_value=2)
    name = serializers.CharField()
    slug = serializers.SlugField()
    double_elimination = serializers.BooleanField(required=False)
    progressive_consolation = serializers.BooleanField(required=False)
    reason = serializers.CharField(
        required=False, allow_blank=True, help_text="qualify before the Swiss is over (recorded in the audit)"
    )
    tie_decision = serializers.ChoiceField(
        choices=list(swiss_requests.TIE_DECISIONS), required=False, allow_blank=True,
        help_text="a place shared across the cut: playoff (drawn first, then this call again takes its "
        "winners), lot (drawn here) or criterion (with tie_note and tie_chosen)",
    )  # fmt: skip
    tie_chosen = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="criterion: the tied entries that go through"
    )
    tie_note = serializers.CharField(required=False, allow_blank=True, help_text="criterion: the criterion stated")


class ForbiddenPairViewSet(
    NestedUnderTournament, mixins.CreateModelMixin, mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):  # fmt: skip
    """Pairs of entries the Swiss must not pair (relatives, one club's players): list, add, remove (officials)."""

    serializer_class = ForbiddenPairSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no tournament
            return ForbiddenPair.objects.none()
        tournament = self.tournament()
        if tournament is None:
            raise NotFound
        require(self.request.user, OFFICIATE, tournament)
        return ForbiddenPair.objects.filter(tournament=tournament).order_by("pk")

    @extend_schema(request=ForbiddenPairSerializer, responses={201: ForbiddenPairSerializer})
    def create(self, request, *args, **kwargs):
        tournament = self.tournament()
        require(request.user, MANAGE, tournament)
        form = ForbidPairForm(tournament, request.data, prefix=None)
        if not form.is_valid():
            raise_form_errors(form)
        d = form.cleaned_data
        try:
            pair = swiss_requests.forbid_pair(tournament, d["entry_a"], d["entry_b"], d["reason"], request.user)
        except PairingRefused as exc:
            _refused(exc)
        return Response(ForbiddenPairSerializer(pair).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, **kwargs):
        pair = self.get_object()
        require(request.user, MANAGE, pair.tournament)
        swiss_requests.allow_pair(pair, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ByeRequestViewSet(
    NestedUnderTournament, mixins.CreateModelMixin, mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):  # fmt: skip
    """Requested byes (half-point or zero byes a player asks for in a coming round): list, add, remove."""

    serializer_class = ByeRequestSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no tournament
            return ByeRequest.objects.none()
        tournament = self.tournament()
        if tournament is None:
            raise NotFound
        qs = ByeRequest.objects.filter(entry__tournament=tournament).order_by("round_number", "pk")
        if allowed(self.request.user, OFFICIATE, tournament):
            return qs
        mine = player_entry(self.request.user, tournament)
        return qs.filter(entry=mine) if mine is not None else qs.none()

    @extend_schema(request=ByeRequestSerializer, responses={201: ByeRequestSerializer})
    def create(self, request, *args, **kwargs):
        tournament = self.tournament()
        if player_entry(request.user, tournament) is None and not allowed(request.user, "entry.request_bye", tournament):
            raise PermissionDenied  # permission before the body is read (issue 47): a stranger learns nothing of it
        data = {"entry": request.data.get("entry"), "round_number": request.data.get("round")}
        form = ByeRequestForm(tournament, data, prefix=None)
        if not form.is_valid():
            raise_form_errors(form)
        entry = form.cleaned_data["entry"]
        require(request.user, "entry.request_bye", entry)
        try:
            req = swiss_requests.request_bye(entry, form.cleaned_data["round_number"], request.user)
        except PairingRefused as exc:
            _refused(exc)
        return Response(ByeRequestSerializer(req).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, **kwargs):
        req = self.get_object()
        require(request.user, "entry.request_bye", req.entry)
        try:
            swiss_requests.cancel_bye(req, request.user)
        except PairingRefused as exc:
            _refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)


class QualifyViewSet(NestedUnderTournament, viewsets.GenericViewSet):
    """Qualify the leaders of a finished Swiss into a knockout cup (the organiser's "to the cup" button)."""

    serializer_class = QualifySerializer

    @extend_schema(request=QualifySerializer, responses={201: None})
    def create(self, request, *args, **kwargs):
        tournament = self.tournament()
        if tournament is None:
            raise NotFound
        require(request.user, MANAGE, tournament)
        form = QualifyForm(tournament, request.data, prefix=None)
        if not form.is_valid():
            raise_form_errors(form)
        args = form.qualify_args()
        try:
            made = swiss_requests.qualify_to_knockout(tournament, **args, user=request.user)
        except PairingRefused as exc:
            # A shared place at the cut: the entries sharing it, for ``tie_chosen``.
            tied = [p.details["entries"] for p in exc.problems if "entries" in p.details]
            _refused(exc, **({"tied_entries": tied[0]} if tied else {}))
        entries = made.entries.order_by("draw_number").values_list("draw_number", "player_id")
        stage = "playoff" if made.slug == swiss_requests.playoff_slug(args["slug"]) else "cup"
        return Response(
            {"slug": made.slug, "stage": stage, "seeds": [{"seed": n, "player": p} for n, p in entries]},
            status=status.HTTP_201_CREATED,
        )
