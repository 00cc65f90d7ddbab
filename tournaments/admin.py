from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.pairing.options import SYSTEM_OPTIONS

from . import audit
from .access.permissions import allowed
from .draw.services import perform_draw, verify_draw
from .models import (
    AuditEntry,
    CompetitionSystem,
    Entry,
    Game,
    Match,
    NumberDraw,
    Official,
    ResultStatus,
    Round,
    Section,
    Team,
    TeamMember,
    Tournament,
)
from .rounds.forms import TournamentOptionsForm, option_field_names


def _tournament_of(obj):
    """The tournament an audited object belongs to (entries, rounds, matches, games)."""
    for path in ("tournament", "round.tournament", "match.round.tournament"):
        target = obj
        for part in path.split("."):
            target = getattr(target, part, None)
        if target is not None:
            return target
    return obj if isinstance(obj, Tournament) else None


class AuditedAdmin(admin.ModelAdmin):
    """Back-office edits bypass the workflow pages, so every save and delete is audited here.

    Who may edit which tournament's objects is the permissions table's
    ``tournament.edit`` row, as on the product's pages: a staff account with
    Django's model permissions still edits only tournaments it directs.
    """

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._may_edit(request, obj)

    @staticmethod
    def _may_edit(request, obj) -> bool:
        tournament = _tournament_of(obj) if obj is not None else None
        return tournament is None or allowed(request.user, "tournament.edit", tournament)

    def save_model(self, request, obj, form, change):
        before = audit.snapshot(type(obj).objects.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        audit.record(
            request.user, _tournament_of(obj), f"admin.{'change' if change else 'create'}",
            obj, before, obj,
        )

    def delete_model(self, request, obj):
        before, tournament, key = audit.snapshot(obj), _tournament_of(obj), (obj._meta.model_name, obj.pk)
        super().delete_model(request, obj)
        audit.record(request.user, tournament, "admin.delete", key, before, None)

    def save_formset(self, request, form, formset, change):
        befores = {
            f.instance.pk: audit.snapshot(type(f.instance).objects.get(pk=f.instance.pk))
            for f in formset.forms
            if f.instance.pk and f.has_changed()
        }
        deleted = [(audit.snapshot(o), _tournament_of(o), (o._meta.model_name, o.pk))
                   for o in formset.deleted_objects] if hasattr(formset, "deleted_objects") else []
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects:
            audit.record(request.user, _tournament_of(obj), "admin.create", obj, None, obj)
        for obj, _fields in formset.changed_objects:
            audit.record(request.user, _tournament_of(obj), "admin.change", obj, befores.get(obj.pk), obj)
        for before, tournament, key in deleted:
            audit.record(request.user, tournament, "admin.delete", key, before, None)


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
class TournamentAdmin(AuditedAdmin):
    form = TournamentOptionsForm
    list_display = ["name", "starts_on", "variant", "system", "status", "public"]
    list_filter = ["status", "system", "variant", "scoring", "public", "club"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    inlines = [SectionInline, OfficialInline, EntryInline]
    actions = ["open_draw_of_numbers"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "club", "starts_on", "ends_on", "venue", "status", "public"]}),
        (_("Game and system"), {"fields": ["variant", "scoring", "system", "rounds_planned", "tiebreaks"]}),
        (_("Match format"), {"fields": ["match_format", "match_length", "fixed_games", "draw_value"]}),
        (_("Cube"), {"fields": ["cube", "crawford", "holland", "jacoby", "beaver", "raccoon", "autodouble_limit", "max_cube"]}),
        (_("Time, lateness and forfeits"), {"fields": [
            "move_seconds", "clock_minutes_per_point", "clock_delay_seconds",
            "clock_increment_seconds", "late_penalty_minutes", "late_forfeit_minutes",
            "forfeit_score"]}),
        (_("Other"), {"fields": ["time_control", "entry_fee"]}),
        (
            _("Registration and draw"),
            {"fields": ["registration_open", "registration_deadline", "entry_limit",
                        "registration_categories", "registration_approval", "check_in_required",
                        "seeding", "draw_commitment"]},
        ),
        # One fieldset a pairing system, one field an option (generated from the options table);
        # only the chosen system's fields are read and written to pairing_options.
        *(
            (
                format_lazy("{}: {}", _("Pairing options"), CompetitionSystem(system).label),
                {"fields": option_field_names(system),
                 "classes": ["collapse"]},
            )
            for system in SYSTEM_OPTIONS
        ),
    ]

    @admin.action(description=_("Open draw of numbers (random, reproducible)"))
    def has_delete_permission(self, request, obj=None):
        """Never: a tournament's results and audit lines stay (the audit log is append-only and
        names its tournament); deleting one here answered 500 (issue 45)."""
        return False

    def delete_view(self, request, object_id, extra_context=None):
        """Someone who follows an old link to delete a tournament is told why not, and where to go."""
        messages.error(request, _(
            "A tournament is never deleted: its results and its audit log must stay. To take it out "
            "of sight, untick “public”; to end it, set its status to finished."))
        return HttpResponseRedirect(reverse("admin:tournaments_tournament_change", args=[object_id]))

    def get_actions(self, request):
        return _without_bulk_delete(super().get_actions(request))

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
class SectionAdmin(AuditedAdmin):
    list_display = ["name", "tournament", "group", "min_category", "max_category", "cube", "match_length"]
    list_filter = ["group", "cube", "tournament"]
    search_fields = ["name", "tournament__name"]


@admin.register(Entry)
class EntryAdmin(AuditedAdmin):
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
class TeamAdmin(AuditedAdmin):
    list_display = ["name", "tournament", "club"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    inlines = [TeamMemberInline]


@admin.register(TeamMember)
class TeamMemberAdmin(admin.ModelAdmin):
    list_display = ["team", "board", "entry"]
    list_filter = ["team__tournament"]
    search_fields = ["team__name", "entry__player__last_name"]


RESULT_FIELDS = ("result_status", "score_a", "score_b", "winner", "result_kind", "start_a", "start_b")
"""A match's official result: written only by the result workflow (:mod:`scoring.workflow`)."""


def workflow_links(match: Match) -> str:
    """Links to the product's own pages for this match's result: referee entry and disputes."""
    if match is None or match.pk is None:
        return "—"
    slug = match.round.tournament.slug
    links = [
        format_html(
            '<a href="{}">{}</a>',
            reverse("referee-match", kwargs={"slug": slug, "match_id": match.pk}),
            _("Enter or correct the result (referee page)"),
        )
    ]
    for dispute_id in match.disputes.values_list("pk", flat=True):
        links.append(
            format_html(
                '<a href="{}">{}</a>',
                reverse("dispute-detail", kwargs={"slug": slug, "dispute_id": dispute_id}),
                _("Dispute #%(id)s") % {"id": dispute_id},
            )
        )
    return format_html_join(mark_safe(" · "), "{}", ((link,) for link in links))


def _has_results(rnd: Round) -> bool:
    """A match of the round has left "pending" (reported, confirmed, disputed)."""
    return rnd.matches.exclude(result_status=ResultStatus.PENDING).exists()


def _without_bulk_delete(actions):
    """The changelist's "delete selected" would skip the per-object check: not offered."""
    actions.pop("delete_selected", None)
    return actions


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "entry_a", "entry_b", "match_length", *RESULT_FIELDS]
    readonly_fields = list(RESULT_FIELDS)
    autocomplete_fields = ["entry_a", "entry_b"]
    show_change_link = True

    def has_delete_permission(self, request, obj=None):
        """A round's pairings may be removed here only while none of them has a result."""
        if obj is not None and _has_results(obj):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Round)
class RoundAdmin(AuditedAdmin):
    list_display = ["tournament", "section", "number", "status", "match_length", "published_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [MatchInline]

    def has_delete_permission(self, request, obj=None):
        """Deleting a round would delete its results with it: only while it has none."""
        if obj is not None and _has_results(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        return _without_bulk_delete(super().get_actions(request))


class ReadOnlyAdminMixin:
    """Shown, never added, changed or deleted in the back office.

    For records only the product's own workflow writes (with its checks and audit
    line): the games of a match (the official ledger), results, the audit log.
    """

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class GameInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "winner", "kind", "cube", "dropped", "autodoubles", "record"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(AuditedAdmin):
    """Pairing fields are editable; the result is shown, with links to the workflow pages.

    Scores, winner and result status change only through the result workflow
    (referee entry, corrections with a reason, disputes), which checks the rules
    and writes the audit log; the back office never writes them directly.
    """

    list_display = ["__str__", "round", "table", "score_a", "score_b", "result_status"]
    list_filter = ["result_status", "round__tournament", "round__number"]
    search_fields = ["entry_a__player__last_name", "entry_b__player__last_name", "round__tournament__name"]
    autocomplete_fields = ["entry_a", "entry_b"]
    list_select_related = ["round__tournament", "entry_a__player", "entry_b__player"]
    readonly_fields = [*RESULT_FIELDS, "version", "result_workflow"]
    inlines = [GameInline]

    @admin.display(description=_("Result workflow"))
    def result_workflow(self, obj):
        return workflow_links(obj)

    def get_actions(self, request):
        return _without_bulk_delete(super().get_actions(request))

    def has_delete_permission(self, request, obj=None):
        """A match with a result (reported, confirmed, disputed) is never deleted here."""
        if obj is not None and (
            obj.result_status != ResultStatus.PENDING or obj.results.exists()
        ):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["match", "number", "winner", "kind", "cube", "dropped"]
    list_filter = ["kind", "dropped"]
    search_fields = ["match__entry_a__player__last_name", "match__entry_b__player__last_name"]


@admin.register(Official)
class OfficialAdmin(AuditedAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "user", "actor", "tournament", "action", "object_type", "object_id", "imported_from"]
    list_filter = ["action", "object_type", "tournament"]
    search_fields = ["object_id", "user__username", "actor", "reason"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
