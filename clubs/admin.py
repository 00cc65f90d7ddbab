from django.contrib import admin

from .models import (
    CategoryChange,
    ChouetteGame,
    ChouetteSession,
    Club,
    ClubRole,
    Membership,
    Player,
    PlayerRating,
    Season,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player", "club"]


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "founded"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubRoleInline, MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "last_name_latin", "category", "rating", "city"]
    list_filter = ["category", "country", "memberships__club"]
    search_fields = ["last_name", "first_name", "last_name_latin", "first_name_latin", "user__username"]
    autocomplete_fields = ["user"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "started_on", "ended_on"]
    list_filter = ["club"]
    search_fields = ["player__last_name", "player__last_name_latin", "club__name"]
    autocomplete_fields = ["player", "club"]
    date_hierarchy = "started_on"


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    """Read-only: ratings are recomputed from the confirmed results, never typed."""

    list_display = ["player", "pool", "rating", "experience", "matches", "last_played"]
    list_filter = ["pool"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    readonly_fields = ["player", "pool", "rating", "experience", "matches", "last_played"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(CategoryChange)
class CategoryChangeAdmin(admin.ModelAdmin):
    list_display = ["player", "category_from", "category_to", "on", "reason"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    autocomplete_fields = ["player"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "best_of"]
    list_filter = ["club"]
    prepopulated_fields = {"slug": ["name"]}


class ChouetteGameInline(admin.TabularInline):
    model = ChouetteGame
    extra = 0
    can_delete = False
    readonly_fields = ["number", "box", "captain", "winner", "kind", "members"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ChouetteSession)
class ChouetteSessionAdmin(admin.ModelAdmin):
    """Games are read-only here: they are entered on the session page, where the core
    (``scoring.rules.chouette``) checks each against the rotation and the cubes."""

    list_display = ["name", "club", "played_on", "cube_mode", "stake"]
    list_filter = ["club"]
    readonly_fields = ["players", "cube_mode"]
    inlines = [ChouetteGameInline]

    def has_add_permission(self, request) -> bool:
        return False
