"""The event's setup over the API: tournaments, sections, officials, entries, the open draw.

Validation is the organiser pages' own forms (so the API refuses exactly what the
pages refuse, with the field names), saving is the services the pages call
(``tournaments.setup.services``, ``entry_roster``, ``entry_import``, ``entry_status``,
``services``); rights are the permissions table's rows.
"""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import mixins, parsers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail, NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response

from clubs.models import Club
from scoring.rules.errors import RuleViolation
from tournaments.access.permissions import allowed, require, visible_tournaments
from tournaments.access.visibility import public_rounds
from tournaments.draw.numbers import ALGORITHM
from tournaments.draw.services import (
    check_draw,
    commit_draw,
    latest_draw,
    perform_draw,
    perform_refusals,
)
from tournaments.entries import importer as entry_import
from tournaments.entries import roster as entry_roster
from tournaments.entries import status as entry_status
from tournaments.entries.forms import AddPlayerForm, NewPlayerForm
from tournaments.entries.status import EntryRefused
from tournaments.setup import services as setup
from tournaments.setup.forms import (
    OfficialForm,
    SectionForm,
    SetupOptionsForm,
    tiebreak_field,
    tiebreak_order_field,
)
from tournaments.setup.presets import get_preset
from tournaments.setup.problems import SETUP
from tournaments.standings.order import parse_tiebreaks
from zarik.i18n import current_language

from ..models import Official, Section, Tournament
from .errors import Refused, form_errors, object_body, raise_form_errors
from .filters import TournamentFilter
from .reads import EntryViewSet, NestedUnderTournament
from .serializers import (
    DrawSerializer,
    EntryInSerializer,
    EntrySerializer,
    ImportResultSerializer,
    OfficialInSerializer,
    OfficialSerializer,
    ReasonSerializer,
    RoundSerializer,
    SectionSerializer,
    TournamentDetailSerializer,
    TournamentSerializer,
    WithdrawSerializer,
    embedded,
)
from .tournament_body import TournamentChangeSerializer, TournamentInSerializer

EDIT = "tournament.edit"

def _form_data(form, payload: dict) -> dict:
    """The form's current values (the instance's, or the preset's) overlaid with ``payload``.

    ``tiebreaks`` (a list of metric keys, in order) becomes the picker's fields; a key the
    registry does not know (or repeated, or not a list) is a 400 naming it, the same
    ``standings.*`` problems the settings page shows — it used to vanish from the picker
    and reset the order to the default mid-event (issue 43).
    """
    data = {name: form[name].value() for name in form.fields}
    payload = dict(payload)
    if "tiebreaks" in payload:
        try:
            keys = parse_tiebreaks(payload.pop("tiebreaks")).keys
        except RuleViolation as exc:
            language = current_language()
            raise ValidationError({"tiebreaks": [
                ErrorDetail(p.message(language), code=p.code) for p in exc.problems
            ]}) from None
        for name in list(data):
            if name.startswith("tb__"):
                data[name] = False if not name.endswith("__order") else None
        for position, key in enumerate(keys, 1):
            data[tiebreak_field(key)] = True
            data[tiebreak_order_field(key)] = position
    data.update({k: v for k, v in payload.items() if k in form.fields})
    return {k: v for k, v in data.items() if v is not None and v is not False}


class TournamentViewSet(
    mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet
):
    """Tournaments: read the visible ones; create (club organisers), change, delete while empty."""

    serializer_class = TournamentSerializer
    lookup_field = "slug"
    filterset_class = TournamentFilter
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return visible_tournaments(self.request.user).select_related("club").order_by("-starts_on", "name")

    @extend_schema(
        parameters=[OpenApiParameter(
            "include", str, description="comma-separated, embedded in the answer: `entries` (every entry), "
            "`rounds` (the published rounds with their matches) — one call instead of three",
        )],
        responses=TournamentDetailSerializer,
    )  # fmt: skip
    def retrieve(self, request, *args, **kwargs):
        """A tournament's options; with ``?include=entries,rounds`` its entries and published rounds too."""
        tournament = self.get_object()
        wanted = embedded(request.query_params.get("include"))
        data = dict(TournamentSerializer(tournament).data)
        if "entries" in wanted:
            entries = tournament.entries.select_related("player", "section", "tournament").order_by("draw_number", "id")
            data["entries"] = EntrySerializer(entries, many=True).data
        if "rounds" in wanted:
            rounds = (
                public_rounds(tournament.rounds.all()).select_related("section", "tournament")
                .prefetch_related("matches__round__tournament", "matches__entry_a__player", "matches__entry_b__player")
                .order_by("section__order", "number")
            )  # fmt: skip
            data["rounds"] = RoundSerializer(rounds, many=True).data
        return Response(data)

    def editable(self, action: str = EDIT) -> Tournament:
        tournament = self.get_object()
        require(self.request.user, action, tournament)
        return tournament

    @extend_schema(request=TournamentInSerializer, responses={201: TournamentSerializer})
    def create(self, request, *args, **kwargs):
        """Create a tournament of a club (``club``: its slug), optionally from a preset, with sections."""
        payload = dict(object_body(request.data))
        club = Club.objects.filter(slug=payload.pop("club", None) or "").first()
        if club is None:
            raise ValidationError({"club": [SETUP.problem("unknown_club").message(current_language())]})
        if not allowed(request.user, "tournament.create", club):
            raise PermissionDenied
        preset = get_preset(payload.pop("preset", None) or "club_swiss")
        if preset is None:
            raise ValidationError({"preset": [SETUP.problem("unknown_preset").message(current_language())]})
        sections_in = payload.pop("sections", None)
        if sections_in is None:  # the preset's sections, as the wizard proposes them
            sections_in = preset.section_values(current_language())
        draft = setup.draft_from_preset(preset, club)
        form = SetupOptionsForm(_form_data(SetupOptionsForm(instance=draft, club=club), payload),
                                instance=draft, club=club)  # fmt: skip
        if not form.is_valid():
            raise_form_errors(form)
        sections = []
        for index, values in enumerate(sections_in or []):
            section_form = SectionForm(values)
            if not section_form.is_valid():
                raise ValidationError({"sections": {index: form_errors(section_form)}})
            sections.append(section_form.save(commit=False))
        tournament = setup.create_tournament(club, request.user, form.save(commit=False), sections, preset.key)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentChangeSerializer, responses=TournamentSerializer)
    def partial_update(self, request, *args, **kwargs):
        """Change options: the settings page's form and its locks once round 1 exists."""
        tournament = self.editable()
        before = setup.audit.snapshot(tournament)
        was_rated = tournament.rated
        form = SetupOptionsForm(_form_data(SetupOptionsForm(instance=tournament), object_body(request.data)), instance=tournament)
        if not form.is_valid():
            raise_form_errors(form)
        setup.save_settings(form, request.user, before, was_rated)
        return Response(TournamentSerializer(tournament).data)

    def update(self, request, *args, **kwargs):
        if not kwargs.get("partial"):
            return self.partial_update(request, *args, **kwargs)
        return self.partial_update(request, *args, **kwargs)

    def destroy(self, request, *args, **kwargs):
        """Delete a tournament with no entries and no rounds (409 ``setup.not_empty`` otherwise)."""
        tournament = self.editable()
        try:
            setup.delete_tournament(tournament, request.user)
        except setup.SetupRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    # -- the open draw ----------------------------------------------------------------------

    def _draw_record(self, tournament: Tournament) -> dict:
        draw = latest_draw(tournament)
        pending = bool(tournament.draw_secret)
        shown = None if pending else draw
        return {
            "tournament": tournament,
            "pending": pending,
            "algorithm": shown.algorithm if shown else ALGORITHM,
            "seed": shown.seed if shown else None,
            "performed_at": shown.performed_at if shown else None,
            "numbers": [{"entry": p["entry"], "name": p["name"], "number": n}
                        for p, n in zip(shown.participants, shown.numbers, strict=True)] if shown else [],
            "verified": check_draw(shown).ok if shown else None,
        }  # fmt: skip

    @extend_schema(responses=DrawSerializer)
    @action(detail=True, methods=["get"])
    def draw(self, request, slug=None):
        """The draw's public record: the commitment; once held, the seed and every number."""
        return Response(DrawSerializer(self._draw_record(self.get_object())).data)

    @extend_schema(request=None, responses=DrawSerializer)
    @action(detail=True, methods=["post"], url_path="draw/commit")
    def draw_commit(self, request, slug=None):
        """Choose and commit a secret seed (publishes its SHA-256)."""
        tournament = self.editable("round.manage")
        try:
            commit_draw(tournament, request.user)
        except RuleViolation as exc:
            raise Refused(exc.problems[0]) from None
        return Response(DrawSerializer(self._draw_record(tournament)).data)

    @extend_schema(request=None, responses=DrawSerializer)
    @action(detail=True, methods=["post"], url_path="draw/perform")
    def draw_perform(self, request, slug=None):
        """Hold the draw with the committed seed: every active entry gets its number."""
        tournament = self.editable("round.manage")
        problems = perform_refusals(tournament)
        try:
            if problems:
                raise RuleViolation(problems)
            perform_draw(tournament, user=request.user)
        except RuleViolation as exc:
            raise Refused(exc.problems[0]) from None
        tournament.refresh_from_db()
        return Response(DrawSerializer(self._draw_record(tournament)).data)


class EditableUnderTournament(NestedUnderTournament):
    def editable(self) -> Tournament:
        tournament = self.tournament()
        if tournament is None:
            raise NotFound
        require(self.request.user, EDIT, tournament)
        return tournament


class SectionViewSet(EditableUnderTournament, viewsets.ModelViewSet):
    """A tournament's sections (groups of categories, each with its own standings): read; organisers change them."""

    serializer_class = SectionSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return self.visible(Section.objects.all()).order_by("order", "id")

    def _save(self, request, instance=None):
        tournament = self.editable()
        # a new section without "order" goes first, as the model's default says (the form would require it)
        initial = SectionSerializer(instance).data if instance is not None else {"order": Section._meta.get_field("order").get_default()}
        form = SectionForm({**initial, **object_body(request.data)}, instance=instance)
        if not form.is_valid():
            raise_form_errors(form)
        section = setup.save_section(form.save(commit=False), tournament, request.user)
        return Response(SectionSerializer(section).data, status=201 if instance is None else 200)

    def create(self, request, *args, **kwargs):
        return self._save(request)

    def partial_update(self, request, *args, **kwargs):
        return self._save(request, self.get_object())

    def destroy(self, request, *args, **kwargs):
        section = self.get_object()
        self.editable()
        try:
            setup.delete_section(section, request.user)
        except setup.SetupRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class OfficialViewSet(EditableUnderTournament, mixins.CreateModelMixin, mixins.DestroyModelMixin,
                      viewsets.ReadOnlyModelViewSet):  # fmt: skip
    """A tournament's officials (directors, referees, jury): organisers appoint them by username or email, or remove them."""

    serializer_class = OfficialSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no tournament
            return Official.objects.none()
        self.editable()
        return self.visible(Official.objects.select_related("user")).order_by("role", "user__username")

    @extend_schema(request=OfficialInSerializer, responses={201: OfficialSerializer})
    def create(self, request, *args, **kwargs):
        tournament = self.editable()
        form = OfficialForm(tournament, object_body(request.data))
        if not form.is_valid():
            raise_form_errors(form)
        official = setup.appoint_official(tournament, request.user, form.cleaned_data["user"], form.cleaned_data["role"])
        return Response(OfficialSerializer(official).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, **kwargs):
        official = self.get_object()
        try:
            setup.remove_official(official, request.user)
        except setup.SetupRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentEntriesViewSet(EditableUnderTournament, mixins.CreateModelMixin, EntryViewSet):
    """A tournament's entries: read; organisers enter players (one or a list), import, withdraw."""

    def _enter(self, tournament, values: dict):
        if values.get("player") is not None:
            form = AddPlayerForm(tournament, values)
            if not form.is_valid():
                return None, form
            return entry_roster.add_entry(tournament, form.cleaned_data["player"], self.request.user,
                                          form.cleaned_data["section"]), None  # fmt: skip
        form = NewPlayerForm(tournament, values)
        if not form.is_valid():
            return None, form
        entry = entry_roster.add_new_player(
            tournament, form.save(commit=False), self.request.user,
            form.cleaned_data.get("club"), form.cleaned_data["section"],
        )  # fmt: skip
        return entry, None

    @extend_schema(
        request=PolymorphicProxySerializer(
            "EntryInOneOrMany", [EntryInSerializer, EntryInSerializer(many=True)], resource_type_field_name=None,
            many=False,
        ),
        responses={201: PolymorphicProxySerializer(
            "EntryOneOrMany", [EntrySerializer, EntrySerializer(many=True)], resource_type_field_name=None,
            many=False,
        )},
        examples=[OpenApiExample("a stored player", value={"player": 12}, request_only=True),
                  OpenApiExample("a new player", value={"last_name": "Петров", "first_name": "Иван",
                                 "category": 5}, request_only=True),
                  OpenApiExample("two at once, all or none", value=[{"player": 12}, {"player": 14}],
                                 request_only=True)],
    )  # fmt: skip
    def create(self, request, *args, **kwargs):
        """Enter one player (an object) or many (a list, all or none): a stored ``player`` id or new fields."""
        tournament = self.editable()
        many = isinstance(request.data, list)
        items = request.data if many else [request.data]
        entries, errors = [], []
        try:
            with transaction.atomic():
                for values in items:
                    entry, form = self._enter(tournament, dict(object_body(values)))
                    errors.append(form_errors(form) if form is not None else {})
                    if entry is not None:
                        entries.append(entry)
                if any(errors):
                    raise ValidationError(errors if many else errors[0])
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        data = EntrySerializer(entries, many=True).data
        return Response(data if many else data[0], status=status.HTTP_201_CREATED)

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {
            "file": {"type": "string", "format": "binary"},
            "new_club": {"type": "array", "items": {"type": "string"},
                         "description": "clubs named in the file to create (an unknown club is never created otherwise)"},
        }}},  # fmt: skip
        parameters=[OpenApiParameter("dry_run", bool, description="1: only say what would happen")],
        responses=ImportResultSerializer,
    )
    @action(detail=False, methods=["post"], url_path="import",
            parser_classes=[parsers.MultiPartParser, parsers.FormParser])  # fmt: skip
    def import_file(self, request, tournament_slug=None):
        """Import a CSV, XLSX or TRF file of entries (``?dry_run=1``: the plan only, nothing written)."""
        tournament = self.editable()
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationError({"file": [SETUP.problem("no_file").message(current_language())]})
        try:
            rows = entry_import.read_upload(upload)
        except entry_import.ImportRefused as exc:
            raise ValidationError({"file": [exc.problem.message(current_language())]}) from None
        new_clubs = request.data.getlist("new_club") if hasattr(request.data, "getlist") else []
        if request.query_params.get("dry_run") in ("1", "true", "yes"):
            result = entry_import.plan(tournament, rows, new_clubs=new_clubs)
        else:
            result = entry_import.apply(tournament, rows, request.user, new_clubs=new_clubs)
        return Response(result.summary(current_language()))

    def _status(self, request, move, serializer=ReasonSerializer):
        tournament = self.editable()
        entry = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"], tournament=tournament)
        reason = serializer(data=request.data)
        reason.is_valid(raise_exception=True)
        extra = {k: v for k, v in reason.validated_data.items() if k != "reason"}
        try:
            move(entry, request.user, reason.validated_data.get("reason", ""), **extra)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        entry.refresh_from_db()
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=WithdrawSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, tournament_slug=None, pk=None):
        """Withdraw an entry (audited; a paired player stays in the standings; an unfinished
        match is settled as ``settle`` says: a forfeit to the opponent, or void)."""
        return self._status(request, entry_status.withdraw, WithdrawSerializer)

    @extend_schema(request=ReasonSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def reinstate(self, request, tournament_slug=None, pk=None):
        """Bring a withdrawn entry back."""
        return self._status(request, entry_status.reinstate)
