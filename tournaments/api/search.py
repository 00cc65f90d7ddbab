"""Players and clubs search: ``GET /api/players/?q=`` and ``GET /api/clubs/?q=``, paged with ``Link`` headers.

The pages' own search (``clubs.search``): a name in any alphabet, ё/е- and
transliteration-blind (``Semenov`` finds Семёнов). What a result shows is what a
player's public profile page shows (name, category, pool ratings, city, clubs) — never an
email or a birth year.
"""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, viewsets

from clubs.models import Club, Membership, Player, PlayerRating
from clubs.search import player_matches, search_clubs

QUERY = OpenApiParameter(
    "q", OpenApiTypes.STR, description="words of the name in any alphabet (Семёнов, Semenov); empty: every one"
)


class PlayerFoundSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="full_name")
    name_latin = serializers.CharField(source="latin_name")
    clubs = serializers.SerializerMethodField()
    rating = serializers.FloatField(
        read_only=True, help_text="the rating the player declared or an import gave (seeding only); see ratings"
    )
    ratings = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "name_latin", "category", "rating", "ratings", "city", "country", "clubs"]
        read_only_fields = fields

    def get_clubs(self, player: Player) -> list[str]:
        """The slugs of the clubs the player is a current member of."""
        return [m.club.slug for m in player.current_memberships]

    def get_ratings(self, player: Player) -> dict[str, float]:
        """Pool → the player's current rating there (FIBS, full precision); only pools they are rated in."""
        return {r.pool: r.rating for r in player.pool_ratings}


class ClubFoundSerializer(serializers.ModelSerializer):
    # A club without a website has "" (not a URI): the answer says exactly that.
    website = serializers.CharField(read_only=True, help_text="the club's website, or empty")

    class Meta:
        model = Club
        fields = ["id", "slug", "name", "city", "website"]  # id: what an entry's "club" takes
        read_only_fields = fields


class PlayerSearchViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """``/api/players/?q=``: find players by name (public, as their profile pages are)."""

    serializer_class = PlayerFoundSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self):
        query = self.request.query_params.get("q", "") if self.request else ""
        current = Prefetch(
            "memberships", queryset=Membership.objects.filter(Membership.current_q()).select_related("club"),
            to_attr="current_memberships",
        )  # fmt: skip
        players = player_matches(query) if query.strip() else Player.objects.order_by("last_name", "first_name", "pk")
        pools = Prefetch("ratings", queryset=PlayerRating.objects.order_by("pool"), to_attr="pool_ratings")
        return players.prefetch_related(current, pools)

    @extend_schema(parameters=[QUERY])
    def list(self, request, *args, **kwargs):
        """Players whose name matches ``q``, best first, a page at a time (``Link`` has the next page)."""
        return super().list(request, *args, **kwargs)


class ClubSearchViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """``/api/clubs/?q=``: find clubs by name or city."""

    serializer_class = ClubFoundSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator reads no rows
            return Club.objects.none()
        return search_clubs(self.request.query_params.get("q", "") if self.request else "")

    @extend_schema(parameters=[QUERY])
    def list(self, request, *args, **kwargs):
        """Clubs whose name or city contains every word of ``q`` (any alphabet), by name."""
        return super().list(request, *args, **kwargs)
