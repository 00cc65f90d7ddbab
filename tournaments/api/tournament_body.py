"""What ``POST /api/tournaments/`` and ``PATCH /api/tournaments/<slug>/`` take: the settings page's fields.

The view validates with the settings page's own form (:class:`SetupOptionsForm`);
this serializer only declares that form's fields for the schema and for the
unknown-field check (:mod:`tournaments.api.http.strict_body`), so the two cannot
drift apart: the model fields are the form's ``Meta.fields`` and the pairing
options are the form's own ``<system>__<option>`` fields, read from the same
builder (:func:`tournaments.rounds.forms.option_fields`).
"""

from __future__ import annotations

from django import forms
from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from tournaments.models import Tournament
from tournaments.rounds.forms import option_fields
from tournaments.setup.forms import SetupOptionsForm
from tournaments.setup.presets import PRESETS

from .serializers import SectionSerializer

#: Django form field → the DRF field that declares the same JSON value.
_KINDS: list[tuple[type[forms.Field], type[serializers.Field]]] = [
    (forms.BooleanField, serializers.BooleanField),
    (forms.ChoiceField, serializers.ChoiceField),
    (forms.IntegerField, serializers.IntegerField),
    (forms.FloatField, serializers.FloatField),
]


def _option_field(field: forms.Field) -> serializers.Field:
    common = {"required": False, "help_text": str(field.help_text or field.label or "")}
    for form_kind, api_kind in _KINDS:
        if isinstance(field, form_kind):
            if api_kind is serializers.ChoiceField:
                return api_kind(choices=[c for c, _label in field.choices], **common)
            return api_kind(**common)
    return serializers.CharField(allow_blank=True, **common)


@extend_schema_serializer(examples=[
    OpenApiExample("A club Swiss", request_only=True, value={
        "club": "zarik", "preset": "club_swiss", "name": "Spring Swiss", "slug": "spring-swiss",
        "starts_on": "2025-04-05", "rounds_planned": 5, "match_length": 5, "public": True,
        "seeding": "registration", "tiebreaks": ["buchholz"],
    }),
])  # fmt: skip
class TournamentInSerializer(serializers.ModelSerializer):
    """A tournament's settings as the settings page takes them; what is left out keeps the
    preset's value (creating) or the current one (changing).

    Defaults that surprise: ``public`` is false (only the organisers see the event, its
    players included get 404, until it is released with ``"public": true``), and ``seeding``
    is ``draw`` (the book's open draw: round 1 waits for ``POST …/draw/commit/`` and
    ``…/draw/perform/``; send ``"seeding": "registration"`` or ``"rating"`` to pair at once).
    """

    club = serializers.CharField(required=False, help_text="the club's slug; required to create")
    preset = serializers.ChoiceField(
        choices=[p.key for p in PRESETS], required=False, help_text="creating only: the starting values"
    )
    sections = SectionSerializer(many=True, required=False, help_text="creating only")
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="metric keys in order; the main score (`wins` or `points`) always decides first: a "
        "list that does not start with it is stored with it first (the system's score when none is "
        "listed: `[\"buchholz\"]` in a Swiss is `[\"wins\", \"buchholz\"]`); an unknown or "
        "repeated key is a 400 naming it",
    )

    class Meta:
        model = Tournament
        fields = ["club", "preset", "sections", "tiebreaks", *SetupOptionsForm.Meta.fields]
        extra_kwargs = {name: {"required": False} for name in SetupOptionsForm.Meta.fields}

    def get_fields(self):
        fields = super().get_fields()
        for name, field in option_fields().items():
            fields[name] = _option_field(field)
        return fields


@extend_schema_serializer(examples=[
    OpenApiExample("Change the venue and the rounds", value={"venue": "Hall 2", "rounds_planned": 7}, request_only=True),
])  # fmt: skip
class TournamentChangeSerializer(TournamentInSerializer):
    """A tournament's settings as ``PATCH`` takes them: the creation-only fields are read-only
    (a 400 naming them, never accepted and ignored — issue 45)."""

    club = serializers.CharField(read_only=True, help_text="the club's slug, fixed at creation")
    preset = serializers.CharField(read_only=True, help_text="creating only")
    sections = SectionSerializer(many=True, read_only=True, help_text="creating only: change them at …/sections/")
