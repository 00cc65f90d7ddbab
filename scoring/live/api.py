"""The live board in the REST API: ``GET /api/matches/<id>/live/``.

The answer is the watchers' own (:func:`.services.watcher_state`, what the board page's
``state.json`` serves), read from the recording's one row; the endpoint tags
it by the recording's step count (as the board page's ``state.json`` is) and answers
``If-None-Match`` with a 304 before the answer is made, so a client polls as cheaply as the page.
The serializers below only describe that answer to the schema.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.api.http.etags import tags as _tags

from . import services
from .models import LiveRecording

SIDES = ["white", "black"]


class LiveCubeSerializer(serializers.Serializer):
    value = serializers.IntegerField(help_text="the cube's value (1 in the middle)")
    owner = serializers.ChoiceField(choices=SIDES, allow_null=True, help_text="null: in the middle")
    offered = serializers.IntegerField(allow_null=True, help_text="the value offered by a double not yet answered")


class LiveBoardSerializer(serializers.Serializer):
    white = serializers.ListField(child=serializers.IntegerField(), help_text="checkers on each point, from that side's view")
    black = serializers.ListField(child=serializers.IntegerField(), help_text="checkers on each point, from that side's view")


@extend_schema_field({
    "type": "array",
    "description": "each checker's move: from, to, and whether it hits",
    "items": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}, {"type": "boolean"}],
              "minItems": 3, "maxItems": 3},
})
class PlayStepsField(serializers.JSONField):
    pass


class LivePlaySerializer(serializers.Serializer):
    text = serializers.CharField(help_text="the play in the record's notation, as the recorder sends it")
    steps = PlayStepsField()


class LiveIdsSerializer(serializers.Serializer):
    position_id = serializers.CharField(required=False, help_text="GNU Backgammon Position ID (backgammon only)")
    match_id = serializers.CharField(required=False, help_text="GNU Backgammon Match ID (backgammon only)")


class LiveNamesSerializer(serializers.Serializer):
    white = serializers.CharField(help_text="player A, who plays white")
    black = serializers.CharField(help_text="player B, who plays black")


class LiveStateSerializer(serializers.Serializer):
    """The live board of a match as it is recorded: score, cube, dice, board, last play and the
    GNU Backgammon Position and Match IDs; the same answer the match's live page polls."""

    match = serializers.IntegerField(help_text="the match's id")
    seq = serializers.IntegerField(help_text="steps recorded so far; it grows with every step")
    state = serializers.ChoiceField(choices=[LiveRecording.RECORDING, LiveRecording.FINISHED])
    variant = serializers.CharField(help_text="backgammon, long_nardy …")
    geometry = serializers.CharField(help_text="the board's layout: short (backgammon) or long (nardy)")
    phase = serializers.CharField(help_text="opening, roll, play, answer or over")
    game = serializers.IntegerField(help_text="the game's number in the match")
    score = serializers.ListField(child=serializers.FloatField(), help_text="white's and black's points")
    length = serializers.IntegerField(allow_null=True, help_text="the match's length in points")
    crawford = serializers.BooleanField()
    cube = LiveCubeSerializer()
    on_roll = serializers.ChoiceField(choices=SIDES, allow_null=True)
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    board = LiveBoardSerializer(allow_null=True)
    last = serializers.CharField(allow_blank=True, help_text="the last step in words (the last play with its dice); empty before the first")
    steps = serializers.IntegerField(help_text="steps of the match replayed")
    allowed = serializers.ListField(child=serializers.CharField(), help_text="the kinds of step the recorder may send next")
    plays = LivePlaySerializer(many=True, help_text="the legal plays for the dice on the board")
    ids = LiveIdsSerializer(help_text="empty for nardy and before the first roll")
    resign_kinds = serializers.ListField(child=serializers.CharField())
    names = LiveNamesSerializer()


class LiveBoardActions:
    """The match resource's ``live/`` read; mixed into the match viewset, which decides who may
    see the match (``get_object``: a published round of a tournament the caller may see)."""

    @extend_schema(
        responses=LiveStateSerializer,
        description="The match's live board while it is recorded move by move, and after its end: the "
        "score, the cube, the dice, the board, the last play and the GNU Backgammon Position and Match IDs. "
        "Poll it with If-None-Match: a 304 while no step was recorded. 404 when the match was never recorded.",
    )
    @action(detail=True, methods=["get"], url_path="live")
    def live(self, request, pk=None, **kwargs):
        match = self.get_object()
        rec = LiveRecording.objects.filter(match=match).first()
        if rec is None:
            raise Http404
        # Tagged by the row's step count, checked before the answer is made (issue 50): a poll
        # holding the current board costs the match's and the row's reads, no JSON.
        headers = {"ETag": f'"live-{rec.pk}-{rec.seq}-{rec.state}"', "Cache-Control": "no-cache"}
        if headers["ETag"] in _tags(request.META.get("HTTP_IF_NONE_MATCH", "")):
            return Response(status=304, headers=headers)
        return Response(services.watcher_state(rec), headers=headers)
