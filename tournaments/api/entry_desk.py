"""An entry's changes over the API: update, delete before pairing, check-in — the entries page's services.

``PATCH /api/tournaments/<slug>/entries/<id>/`` moves an entry to a section, sets its
rating at entry (``entries.roster.change_entry``) and its status (``entries.status``:
check in, check out, withdraw, reinstate); ``DELETE`` removes an entry never paired
(``roster.remove_entry``: 409 ``entry.remove_paired`` once paired, as on the page).
``POST …/check-in/`` is the player's own check-in (or the desk's, for anyone) and
``DELETE …/check-in/`` takes it back: the desk at any time, the player only until the
round is paired (``entries.status.undo_own_check_in``). Rights are the permissions
table's rows (``tournament.edit``, ``desk.run``, ``entry.check_in``), checked by the
services themselves.
"""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from tournaments.access.permissions import allowed
from tournaments.entries import roster as entry_roster
from tournaments.entries import status as entry_status
from tournaments.entries.problems import ENTRY
from tournaments.entries.status import EntryRefused
from tournaments.models import Entry, EntryStatus
from zarik.i18n import current_language

from .errors import Refused
from .serializers import EntrySerializer
from .setup import TournamentEntriesViewSet

PROBLEM = OpenApiResponse(description="a problem (RFC 9457): forbidden, not found, or refused by the rules")


class EntryChangeSerializer(serializers.Serializer):
    """What the organiser may change on an entry; any field left out stays as it is."""

    section = serializers.IntegerField(required=False, allow_null=True, help_text="a section id of this tournament, or null")
    category = serializers.IntegerField(
        required=False,
        help_text="the category the entry plays in, within this event only (the player's own category "
        "and its history stay); not yet paired, the entry moves to the one section that holds it",
    )
    seed_rating = serializers.FloatField(
        required=False, allow_null=True, min_value=0,
        help_text="the rating at entry that seeds the pairings; fixed once the player is paired",
    )  # fmt: skip
    status = serializers.ChoiceField(
        choices=EntryStatus.choices, required=False,
        help_text="registered, checked_in or withdrawn (a withdrawal settles an unplayed match as a forfeit)",
    )  # fmt: skip
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


def _move_status(entry: Entry, user, wanted: str, reason: str) -> None:
    """The status change as the desk makes it: each through its own audited service."""
    if wanted == entry.status:
        return
    if wanted == EntryStatus.CHECKED_IN:
        entry_status.check_in(entry, user)
    elif wanted == EntryStatus.WITHDRAWN:
        entry_status.withdraw(entry, user, reason)
    elif entry.status == EntryStatus.WITHDRAWN:
        entry_status.reinstate(entry, user, reason)
    else:
        entry_status.check_out(entry, user)


class EntryDeskViewSet(TournamentEntriesViewSet):
    """A tournament's entries: read, enter, import, withdraw, change, delete before pairing, and check in."""

    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def entry(self) -> Entry:
        return get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])

    @extend_schema(
        request=EntryChangeSerializer, responses={200: EntrySerializer, 400: PROBLEM, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM},
        examples=[
            OpenApiExample("Move to a section", value={"section": 3}, request_only=True),
            OpenApiExample("Set the rating at entry", value={"seed_rating": 1650.0}, request_only=True),
            OpenApiExample("Check the player in", value={"status": "checked_in"}, request_only=True),
        ],
    )  # fmt: skip
    def partial_update(self, request, *args, **kwargs):
        """Change an entry's section, rating at entry (before pairing) or status, audited."""
        tournament = self.editable()
        entry = self.entry()
        body = EntryChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        changes = {}
        if "section" in values:
            section = None
            if values["section"] is not None:
                section = tournament.sections.filter(pk=values["section"]).first()
                if section is None:
                    raise ValidationError({"section": [_unknown_section(values["section"])]})
            changes["section"] = section
        if "seed_rating" in values:
            changes["seed_rating"] = values["seed_rating"]
        if "category" in values:
            changes["category"] = values["category"]
        try:
            with transaction.atomic():
                entry_roster.change_entry(entry, request.user, reason=values["reason"], **changes)
                if "status" in values:
                    _move_status(entry, request.user, values["status"], values["reason"])
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        entry.refresh_from_db()
        return Response(EntrySerializer(entry).data)

    @extend_schema(responses={204: None, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM})
    def destroy(self, request, *args, **kwargs):
        """Remove an entry never paired; once paired, 409 ``entry.remove_paired`` (withdraw it instead)."""
        self.editable()
        try:
            entry_roster.remove_entry(self.entry(), request.user)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["POST"], request=None, responses={200: EntrySerializer, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM},
        description="Check in: the player themselves (a token of the entry's account) or the desk, for anyone.",
    )  # fmt: skip
    @extend_schema(
        methods=["DELETE"], request=None, responses={200: EntrySerializer, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM},
        description="Take a check-in back: the desk at any time; the player their own only until the round is "
        "paired (409 `entry.check_in_paired` after).",
    )  # fmt: skip
    @action(detail=True, methods=["post", "delete"], url_path="check-in")
    def check_in(self, request, tournament_slug=None, pk=None):
        entry = self.entry()
        try:
            if request.method == "POST":
                entry_status.check_in(entry, request.user)
            elif allowed(request.user, "desk.run", entry.tournament):
                entry_status.check_out(entry, request.user)
            else:
                entry_status.undo_own_check_in(entry, request.user)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        entry.refresh_from_db()
        return Response(EntrySerializer(entry).data)


def _unknown_section(value) -> str:
    return ENTRY.problem("unknown_section", value=value).message(current_language())
