"""The JSON of tournaments, entries, rounds and matches: every match says where it belongs and who plays."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from zarik.i18n import current_language

from ..models import Entry, Match, Official, Round, Section, Team, TeamMember, Tournament
from .http.fields_once import FieldsBuiltOnce
from .http.problems import API


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "club", "starts_on", "ends_on", "venue", "variant", "scoring", "system",
            "match_format", "match_length", "fixed_games", "cube", "crawford", "holland",
            "beaver", "raccoon", "autodouble_limit", "max_cube", "status", "rounds_planned",
            "public", "seeding", "tiebreaks", "move_seconds", "clock_minutes_per_point",
            "clock_delay_seconds", "clock_increment_seconds", "late_penalty_minutes",
            "late_forfeit_minutes", "forfeit_score", "penalty_from", "rated",
        ]  # fmt: skip


class EntrySerializer(serializers.ModelSerializer):
    tournament = serializers.CharField(source="tournament.slug", read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.full_name", read_only=True)
    name_latin = serializers.CharField(source="player.latin_name", read_only=True)
    category = serializers.IntegerField(
        source="playing_category", read_only=True, allow_null=True,
        help_text="the category the entry plays in, kept as entered (the player's later changes leave it)",
    )
    section = serializers.CharField(source="section.name", default=None, read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id", "tournament", "player", "draw_number", "name", "name_latin", "category", "section",
            "status", "joined_round", "removal", "updated_at",
        ]  # fmt: skip
        read_only_fields = ["updated_at"]


class SideSerializer(serializers.Serializer):
    """A player of a match by name (null for the bye's empty side)."""

    entry = serializers.IntegerField(source="pk")
    draw_number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(source="player.full_name")
    name_latin = serializers.CharField(source="player.latin_name")


@extend_schema_field(OpenApiTypes.NUMBER)
class ScoreOut(serializers.Field):
    """A stored score as a JSON number: 5, or 2.5 where a drawn game scored ½ (never a string)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value):
        if value is None:
            return None
        number = float(value)
        return int(number) if number == int(number) else number


class MatchSerializer(FieldsBuiltOnce, serializers.ModelSerializer):
    """One match of a published round: its two players (entries), the table, and the result
    once entered (``result_status``; ``score_a``/``score_b`` stay null until then). ``version``
    goes with every result action (``report/``, ``confirm/`` …) so a stale write is refused."""

    tournament = serializers.CharField(source="round.tournament.slug", read_only=True)
    round = serializers.IntegerField(
        source="round.number", read_only=True,
        help_text="the round's NUMBER in its tournament (1, 2, …), as the pages show it; not the id "
        "that /api/rounds/{id}/ takes: that is round_id",
    )
    round_id = serializers.IntegerField(
        read_only=True, help_text="the round's id, as /api/rounds/{id}/ and its actions take it",
    )
    player_a = SideSerializer(source="entry_a", read_only=True, allow_null=True)
    player_b = SideSerializer(source="entry_b", read_only=True, allow_null=True)
    score_a = ScoreOut(allow_null=True)
    score_b = ScoreOut(allow_null=True)

    class Meta:
        model = Match
        fields = [
            "id", "tournament", "round", "round_id", "table", "entry_a", "entry_b", "player_a", "player_b",
            "match_length", "result_status", "score_a", "score_b", "winner", "result_kind",
            "start_a", "start_b", "clock_minutes_per_point", "clock_delay_seconds",
            "clock_increment_seconds", "version",
        ]  # fmt: skip
        # version: what report/ and confirm/ must send back (optimistic concurrency)


class RoundSerializer(serializers.ModelSerializer):
    tournament = serializers.CharField(source="tournament.slug", read_only=True)
    section = serializers.CharField(source="section.name", default=None, allow_null=True)
    matches = MatchSerializer(many=True)

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "section", "status", "match_length", "published_at", "matches"]


@extend_schema_serializer(examples=[OpenApiExample("Higher categories", value={"name": "Высшая", "group": "higher", "min_category": 7, "max_category": 9, "cube": True, "match_length": 11}, request_only=True)])
class SectionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Section
        fields = [
            "id", "name", "group", "min_category", "max_category", "rule_category", "cube",
            "match_length", "override_reason", "order",
        ]  # fmt: skip


class OfficialSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Official
        fields = ["id", "username", "role"]


@extend_schema_serializer(examples=[OpenApiExample("Appoint a referee", value={"user": "referee", "role": "referee"}, request_only=True)])
class OfficialInSerializer(serializers.Serializer):
    user = serializers.CharField(help_text="username or email")
    role = serializers.CharField()


class EntryInSerializer(serializers.Serializer):
    """One entry: ``player`` (a stored player's id) or the new player's fields.

    New fields whose name or email matches stored players are refused (400) with the
    candidates named (``#id``): send ``player`` with one of them, or ``new_person: true``.
    """

    player = serializers.IntegerField(required=False, help_text="a stored player's id; else the new player's fields")
    section = serializers.IntegerField(required=False, allow_null=True)
    last_name = serializers.CharField(required=False, help_text="required for a new player")
    first_name = serializers.CharField(required=False)
    last_name_latin = serializers.CharField(required=False)
    first_name_latin = serializers.CharField(required=False)
    category = serializers.IntegerField(
        required=False, min_value=1, max_value=9,
        help_text="required for a new player (the book's categories 1–9); not with `player`",
    )
    rating = serializers.FloatField(required=False)
    email = serializers.EmailField(required=False)
    club = serializers.IntegerField(required=False, allow_null=True)
    birth_year = serializers.IntegerField(required=False, allow_null=True)
    new_person = serializers.BooleanField(
        required=False, help_text="none of the proposed stored players: create a new one"
    )


@extend_schema_serializer(examples=[OpenApiExample("With a reason", value={"reason": "left the hall ill"}, request_only=True)])
class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class WithdrawSerializer(ReasonSerializer):
    settle = serializers.ChoiceField(
        choices=["forfeit", "void"], required=False, default="forfeit",
        help_text="the player's unfinished match in a published round: a forfeit to the opponent, or void",
    )


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    existing = serializers.IntegerField()
    errors = serializers.ListField(child=serializers.DictField())


class DrawSerializer(serializers.Serializer):
    """The open draw's public record: the commitment, and once drawn the seed and the numbers."""

    commitment = serializers.CharField(source="tournament.draw_commitment")
    pending = serializers.BooleanField()
    algorithm = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True)
    performed_at = serializers.DateTimeField(allow_null=True)
    numbers = serializers.ListField(child=serializers.DictField())
    verified = serializers.BooleanField(allow_null=True)




class TeamMemberSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id", read_only=True)
    name = serializers.CharField(source="entry.player.full_name", read_only=True)
    name_latin = serializers.CharField(source="entry.player.latin_name", read_only=True)

    class Meta:
        model = TeamMember
        fields = ["board", "entry", "name", "name_latin"]


class TeamSerializer(serializers.ModelSerializer):
    """A team with its line-up by board; ``club`` is the club's slug."""

    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    members = TeamMemberSerializer(many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "club", "members"]


@extend_schema_serializer(examples=[OpenApiExample("A club's team", value={"name": "Зарик-1", "club": "zarik"}, request_only=True)])
class TeamInSerializer(serializers.Serializer):
    name = serializers.CharField()
    club = serializers.CharField(required=False, allow_null=True, help_text="the club's slug")


@extend_schema_serializer(examples=[OpenApiExample("Board 1", value={"entry": 17, "board": 1}, request_only=True)])
class BoardInSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="the entry's id")
    board = serializers.IntegerField(min_value=1, max_value=99)


class TournamentDetailSerializer(TournamentSerializer):
    """One tournament; ``entries`` and ``rounds`` only when asked for with ``?include=`` (issue 47)."""

    # not read-only: a read-only field is "required" in an answer's schema, and these come only when asked for
    entries = EntrySerializer(many=True, required=False, help_text="with ?include=entries")
    rounds = RoundSerializer(many=True, required=False, help_text="with ?include=rounds")

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "entries", "rounds"]


#: What ``?include=`` may embed in a tournament.
EMBEDDABLE = ("entries", "rounds")


def embedded(value: str | None) -> set[str]:
    """The names asked for in ``?include=`` (comma-separated); an unknown one is a 400 naming it."""
    wanted = {part.strip() for part in (value or "").split(",") if part.strip()}
    unknown = sorted(wanted - set(EMBEDDABLE))
    if unknown:
        raise serializers.ValidationError({"include": [API.problem(
            "unknown_include", names=", ".join(unknown), allowed=", ".join(EMBEDDABLE)
        ).message(current_language())]})  # fmt: skip
    return wanted
