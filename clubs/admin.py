from django.contrib import admin

from .models import Club, ClubRole, Membership, Player


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
