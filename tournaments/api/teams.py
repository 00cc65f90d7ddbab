"""``/api/tournaments/<slug>/teams/``: the Scheveningen line-ups, through the teams page's forms and services.

Create (``name``, ``club`` slug), delete while unpaired, put an entry on a board
(``POST …/teams/<id>/members/``) and take it off (``DELETE …/teams/<id>/members/<entry>/``).
Reading is open to whoever sees the tournament; changes need ``tournament.edit``. Once
round 1 is paired the line-ups are fixed (the schedule is built from the boards): putting on
or taking off a player answers 409 ``entry.lineup_fixed``. Putting a
player on a board answers with ``lineup_problems``: uneven teams are said at once (the open
draw and the pairing refuse them), as on the teams page.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from clubs.models import Club
from tournaments.entries import teams
from tournaments.entries.forms import TeamForm, TeamMemberForm
from tournaments.entries.status import EntryRefused
from tournaments.team_match import lineup_problems
from zarik.i18n import current_language

from ..models import Team, TeamMember
from .errors import Refused, object_body, raise_form_errors
from .serializers import BoardInSerializer, TeamInSerializer, TeamMemberSerializer, TeamSerializer
from .setup import EditableUnderTournament


class LineupProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class BoardOutSerializer(TeamMemberSerializer):
    """The player now on the board, and why the line-ups cannot be paired yet (empty: they can)."""

    lineup_problems = LineupProblemSerializer(
        many=True, read_only=True,
        help_text="uneven teams (4 against 3), an empty team, an odd number of teams, a member who withdrew "
        "before the draw: the open draw "
        "and the pairing refuse with these until they are put right",
    )  # fmt: skip

    class Meta(TeamMemberSerializer.Meta):
        fields = [*TeamMemberSerializer.Meta.fields, "lineup_problems"]


def _with_problems(member, tournament) -> dict:
    data = dict(TeamMemberSerializer(member).data)
    language = current_language()
    data["lineup_problems"] = [
        {"code": p.code, "message": p.message(language)} for p in lineup_problems(tournament)
    ]
    return data


class TeamViewSet(EditableUnderTournament, mixins.CreateModelMixin, mixins.DestroyModelMixin,
                  viewsets.ReadOnlyModelViewSet):  # fmt: skip
    """Teams of a Scheveningen or team event, with their players by board: list, create, delete."""

    serializer_class = TeamSerializer

    def get_queryset(self):
        return self.visible(
            Team.objects.select_related("club").prefetch_related("members__entry__player")
        ).order_by("name", "id")

    @extend_schema(
        request=TeamInSerializer, responses={201: TeamSerializer},
        examples=[OpenApiExample("A club's team", value={"name": "Зарик-1", "club": "zarik"}, request_only=True)],
    )  # fmt: skip
    def create(self, request, *args, **kwargs):
        tournament = self.editable()
        body = object_body(request.data)
        data = {"name": body.get("name", "")}
        slug = body.get("club")
        if slug:
            club = Club.objects.filter(slug=str(slug)).first()
            data["club"] = club.pk if club else -1  # an unknown slug is the form's "not a valid choice"
        form = TeamForm(tournament, data)
        if not form.is_valid():
            raise_form_errors(form)
        team = teams.create_team(request.user, tournament, form.save(commit=False))
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, **kwargs):
        team = self.get_object()
        self.editable()
        try:
            teams.delete_team(request.user, team)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=BoardInSerializer, responses={200: BoardOutSerializer},
        examples=[OpenApiExample("Board 1", value={"entry": 17, "board": 1}, request_only=True)],
    )  # fmt: skip
    @action(detail=True, methods=["post"])
    def members(self, request, tournament_slug=None, pk=None):
        """Put an entry on a board of this team (moving it from any other team or board)."""
        team = self.get_object()
        tournament = self.editable()
        body = object_body(request.data)
        values = {"team": team.pk, "entry": body.get("entry"), "board": body.get("board")}
        form = TeamMemberForm(tournament, values)
        if not form.is_valid():
            raise_form_errors(form)
        try:
            member = teams.put_on_board(request.user, tournament, **form.cleaned_data)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        return Response(_with_problems(member, tournament))

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"members/(?P<entry_id>[0-9]{1,9})")
    def member(self, request, tournament_slug=None, pk=None, entry_id=None):
        """Take a player off this team (the entry stays in the tournament)."""
        team = self.get_object()
        self.editable()
        member = get_object_or_404(TeamMember, team=team, entry_id=entry_id)
        try:
            teams.take_off(request.user, member)
        except EntryRefused as exc:
            raise Refused(exc.problem) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
