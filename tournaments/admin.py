from django.contrib import admin, messages
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.validation import problems_to_validation_error, validate_result

from .models import (
    Entry,
    Game,
    Match,
    NumberDraw,
    Official,
    Round,
    Section,
    Team,
    TeamMember,
    Tournament,
)
from .services import perform_draw, verify_draw


class SectionInline(admin.TabularInline):
    model = Section
    extra = 0


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["draw_number", "player", "section", "status", "seed_rating"]
    show_change_link = True


class OfficialInline(admin.TabularInline):
    model = Official
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "variant", "system", "status", "public"]
    list_filter = ["status", "system", "variant", "scoring", "public", "club"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    inlines = [SectionInline, OfficialInline, EntryInline]
    actions = ["open_draw_of_numbers"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "club", "starts_on", "ends_on", "venue", "status", "public"]}),
        (_("Game and system"), {"fields": ["variant", "scoring", "system", "rounds_planned", "tiebreaks", "pairing_options"]}),
        (_("Match format"), {"fields": ["match_format", "match_length", "fixed_games", "draw_value"]}),
        (_("Cube"), {"fields": ["cube", "crawford", "holland", "jacoby", "beaver", "raccoon", "autodouble_limit", "max_cube"]}),
        (_("Other"), {"fields": ["time_control", "entry_fee"]}),
    ]

    @admin.action(description=_("Open draw of numbers (random, reproducible)"))
    def open_draw_of_numbers(self, request, queryset):
        for tournament in queryset:
            draw = perform_draw(tournament, user=request.user)
            self.message_user(
                request,
                _("%(t)s: %(n)d numbers drawn with seed %(s)s.")
                % {"t": tournament, "n": len(draw.numbers), "s": draw.seed},
                messages.SUCCESS,
            )


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "group", "min_category", "max_category", "cube", "match_length"]
    list_filter = ["group", "cube", "tournament"]
    search_fields = ["name", "tournament__name"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["draw_number", "player", "tournament", "section", "status"]
    list_filter = ["status", "tournament", "section"]
    search_fields = ["player__last_name", "player__last_name_latin", "tournament__name"]
    autocomplete_fields = ["player", "tournament"]
    list_select_related = ["player", "tournament", "section"]


@admin.register(NumberDraw)
class NumberDrawAdmin(admin.ModelAdmin):
    list_display = ["tournament", "performed_at", "seed", "algorithm", "performed_by"]
    list_filter = ["tournament"]
    readonly_fields = ["tournament", "seed", "algorithm", "performed_at", "performed_by", "participants", "numbers"]
    actions = ["verify"]

    @admin.action(description=_("Verify: re-run the draw from its seed"))
    def verify(self, request, queryset):
        bad = [d for d in queryset if not verify_draw(d)]
        ok = queryset.count() - len(bad)
        if ok:
            self.message_user(
                request,
                ngettext("%d draw verified.", "%d draws verified.", ok) % ok,
                messages.SUCCESS,
            )
        for draw in bad:
            self.message_user(request, _("Draw %s does NOT reproduce.") % draw, messages.ERROR)


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0
    autocomplete_fields = ["entry"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "club"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    inlines = [TeamMemberInline]


@admin.register(TeamMember)
class TeamMemberAdmin(admin.ModelAdmin):
    list_display = ["team", "board", "entry"]
    list_filter = ["team__tournament"]
    search_fields = ["team__name", "entry__player__last_name"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "entry_a", "entry_b", "match_length", "result_status", "score_a", "score_b", "winner"]
    autocomplete_fields = ["entry_a", "entry_b"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "section", "number", "status", "match_length", "published_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [MatchInline]


class GameLedgerFormSet(BaseInlineFormSet):
    """Checks the games together with the match's score through the match-rules core."""

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        games = [
            {k: form.cleaned_data.get(k) for k in ("winner", "kind", "cube", "dropped", "autodoubles")}
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE") and form.cleaned_data.get("kind")
        ]
        match = self.instance
        final = (
            (match.score_a, match.score_b)
            if match.score_a is not None and match.score_b is not None
            else None
        )
        if not games and final is None:
            return
        verdict = validate_result(match, final=final, games=games or None)
        if not verdict.ok:
            raise problems_to_validation_error(verdict.problems)


class GameInline(admin.TabularInline):
    model = Game
    formset = GameLedgerFormSet
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "table", "score_a", "score_b", "result_status"]
    list_filter = ["result_status", "round__tournament", "round__number"]
    search_fields = ["entry_a__player__last_name", "entry_b__player__last_name", "round__tournament__name"]
    autocomplete_fields = ["entry_a", "entry_b"]
    list_select_related = ["round__tournament", "entry_a__player", "entry_b__player"]
    readonly_fields = ["version"]
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "winner", "kind", "cube", "dropped"]
    list_filter = ["kind", "dropped"]
    search_fields = ["match__entry_a__player__last_name", "match__entry_b__player__last_name"]


@admin.register(Official)
class OfficialAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user", "tournament"]
