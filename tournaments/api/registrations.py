"""Self-registration over the API: a visitor or player applies; the organiser lists, approves, refuses.

The same form and services as the pages (``tournaments.registration``): the public
application is :class:`RegistrationForm` then ``services.apply`` (closed registration,
categories, the duplicate check, the waiting list, the emails); deciding is
``services.approve`` / ``refuse``, whose rights are the permissions table's
``tournament.edit`` row. Approving from the waiting list of a full tournament needs
``over_limit_reason`` (kept in the audit log), as on the organiser's page; an applicant
whose name matches stored players needs ``player`` (one candidate's id, or ``"new"``).
"""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.response import Response

from tournaments.models import Registration
from tournaments.registration import services as registration
from tournaments.registration.forms import RegistrationForm
from zarik.i18n import current_language

from .errors import Refused, raise_form_errors
from .setup import EditableUnderTournament

PROBLEM = OpenApiResponse(description="a problem (RFC 9457): invalid, forbidden, not found, or refused by the rules")


class ApplicationSerializer(serializers.Serializer):
    """What an applicant sends: the public form's fields (``category`` 1–9 by the book's table)."""

    last_name = serializers.CharField(max_length=100)
    first_name = serializers.CharField(max_length=100)
    last_name_latin = serializers.CharField(max_length=100, required=False, allow_blank=True)
    first_name_latin = serializers.CharField(max_length=100, required=False, allow_blank=True)
    email = serializers.EmailField(help_text="the confirmation and the private link are sent here; never shown to others")
    club_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    category = serializers.IntegerField(min_value=1, max_value=9)
    rating = serializers.FloatField(required=False, allow_null=True, min_value=0, max_value=4000)


class CandidateSerializer(serializers.Serializer):
    """A stored player the applicant may be (no email: the organiser tells them apart by name and club)."""

    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.full_name")
    category = serializers.IntegerField(source="player.category")
    clubs = serializers.ListField(child=serializers.CharField())
    certain = serializers.BooleanField()


class RegistrationSerializer(serializers.ModelSerializer):
    """An application as the applicant sees it: its status and place on the waiting list."""

    waitlist_position = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = ["id", "last_name", "first_name", "last_name_latin", "first_name_latin", "club_name",
                  "category", "rating", "status", "waitlist_position", "created_at", "decided_at"]  # fmt: skip
        read_only_fields = fields

    def get_waitlist_position(self, reg: Registration) -> int | None:
        return registration.waitlist_position(reg)


class OrganiserRegistrationSerializer(RegistrationSerializer):
    """The organiser's view: the email (to write to the applicant), the entry made, who they may be."""

    entry = serializers.IntegerField(source="entry_id", allow_null=True, read_only=True)
    candidates = serializers.SerializerMethodField()

    class Meta(RegistrationSerializer.Meta):
        fields = [*RegistrationSerializer.Meta.fields, "email", "entry", "candidates"]
        read_only_fields = fields

    @extend_schema_field(CandidateSerializer(many=True))
    def get_candidates(self, reg: Registration) -> list[dict]:
        if reg.status not in registration.OPEN_STATES:
            return []
        return CandidateSerializer(registration.candidates_for(reg), many=True).data


class ApproveSerializer(serializers.Serializer):
    player = serializers.CharField(
        required=False, allow_blank=True, max_length=20,
        help_text='who the applicant is when their name matches stored players: a candidate\'s id, or "new"',
    )  # fmt: skip
    over_limit_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500,
        help_text="why an application from the waiting list is approved past the entry limit (audited)",
    )  # fmt: skip


class RefuseSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500,
                                   help_text="sent to the applicant in the refusal email")  # fmt: skip


def _refused(exc: registration.RegistrationRefused, body_fields) -> Refused | ValidationError:
    """A refusal about a field the caller sent is that field's 400; any other is the state's 409."""
    if exc.field and exc.field in body_fields:
        return ValidationError({exc.field: [ErrorDetail(exc.message, code=exc.problem.code)]})
    return Refused(exc.problem)


class RegistrationViewSet(EditableUnderTournament, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Applications to play: anyone who may see the event applies; its organisers list, approve and refuse them."""

    serializer_class = OrganiserRegistrationSerializer
    filterset_fields = ["status"]

    def get_permissions(self):
        if self.action == "create":
            return [permissions.AllowAny()]  # a visitor applies, as on the public form
        return [permissions.IsAuthenticated()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no tournament
            return Registration.objects.none()
        tournament = self.editable()
        return tournament.registrations.select_related("tournament").order_by("created_at", "pk")

    @extend_schema(
        request=ApplicationSerializer, responses={201: RegistrationSerializer, 400: PROBLEM, 404: PROBLEM, 409: PROBLEM},
        examples=[OpenApiExample("An application", request_only=True, value={
            "last_name": "Петров", "first_name": "Иван", "email": "ivan@example.org", "category": 4})],
    )  # fmt: skip
    def create(self, request, *args, **kwargs):
        """Apply to play (the public form's rules: open registration, categories, no duplicate, the
        waiting list when full). 409 ``registration.closed`` and the like when the event takes none."""
        tournament = self.tournament()
        closed = registration.refusal(tournament)
        if closed is not None:
            raise _refused(closed, ())
        form = RegistrationForm(request.data, tournament=tournament)
        if not form.is_valid():
            raise_form_errors(form)
        try:
            outcome = registration.apply(
                tournament, form.cleaned_data, language=current_language(), user=request.user
            )
        except registration.RegistrationRefused as exc:
            raise _refused(exc, form.fields) from None
        return Response(RegistrationSerializer(outcome.registration).data, status=status.HTTP_201_CREATED)

    def _decide(self, request, func, body_class, **fixed):
        reg = self.get_object()
        body = body_class(data=request.data)
        body.is_valid(raise_exception=True)
        values = {k: v for k, v in body.validated_data.items() if v not in ("", None)}
        try:
            func(reg, request.user, **values, **fixed)
        except registration.RegistrationRefused as exc:
            raise _refused(exc, body.fields) from None
        reg.refresh_from_db()
        return Response(OrganiserRegistrationSerializer(reg).data)

    @extend_schema(
        request=ApproveSerializer, responses={200: OrganiserRegistrationSerializer, 400: PROBLEM, 403: PROBLEM, 409: PROBLEM},
        examples=[OpenApiExample("Approve", value={}, request_only=True),
                  OpenApiExample("Approve as a stored player", value={"player": "12"}, request_only=True),
                  OpenApiExample("Past the entry limit", value={"over_limit_reason": "a sponsor's guest"},
                                 request_only=True)],
    )  # fmt: skip
    @action(detail=True, methods=["post"])
    def approve(self, request, tournament_slug=None, pk=None):
        """Accept an application: it becomes an entry. From the waiting list of a full event,
        400 ``registration.full`` on ``over_limit_reason`` unless a reason is given."""
        return self._decide(request, registration.approve, ApproveSerializer)

    @extend_schema(
        request=RefuseSerializer, responses={200: OrganiserRegistrationSerializer, 403: PROBLEM, 409: PROBLEM},
        examples=[OpenApiExample("Refuse", value={"reason": "the event is for juniors"}, request_only=True)],
    )  # fmt: skip
    @action(detail=True, methods=["post"])
    def refuse(self, request, tournament_slug=None, pk=None):
        """Refuse an application (the applicant is emailed the reason; its place goes to the waiting list)."""
        return self._decide(request, registration.refuse, RefuseSerializer)
