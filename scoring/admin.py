from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments.admin import ReadOnlyAdminMixin, workflow_links

from .models import Dispute, Result, Sanction


@admin.register(Result)
class ResultAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Reports and confirmations, shown read-only with links to the workflow pages.

    A result is reported, confirmed, corrected (with a reason) or ruled on only
    through :mod:`scoring.workflow`, which checks the rules and writes the audit
    log; the back office neither adds, changes nor deletes one.
    """

    list_display = [
        "match",
        "score_a",
        "score_b",
        "state",
        "reported_by",
        "confirmed_by",
        "reported_at",
        "result_workflow",
    ]
    list_filter = ["state", "match__round__tournament"]
    search_fields = ["match__entry_a__player__last_name", "match__entry_b__player__last_name"]
    list_select_related = [
        "match__round__tournament",
        "match__entry_a__player",  # the match's name in each row (Match.__str__)
        "match__entry_b__player",
        "reported_by",
        "confirmed_by",
    ]
    readonly_fields = [
        "match",
        "score_a",
        "score_b",
        "kind",
        "winner",
        "games",
        "state",
        "reported_by",
        "reported_at",
        "confirmed_by",
        "confirmed_at",
        "note",
        "result_workflow",
    ]

    @admin.display(description=_("Result workflow"))
    def result_workflow(self, obj):
        return workflow_links(obj.match) if obj is not None else "—"


class _ReadOnly(admin.ModelAdmin):
    """Disputes and sanctions change only through the workflow pages, which write the audit log."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Dispute)
class DisputeAdmin(_ReadOnly):
    list_display = ["match", "state", "raised_by", "raised_at", "ruling_outcome", "jury_outcome"]
    list_filter = ["state", "match__round__tournament"]
    list_select_related = ["match__entry_a__player", "match__entry_b__player", "raised_by"]
    search_fields = ["reason", "ruling", "jury_decision"]
    raw_id_fields = ["match", "result", "decided_result"]


@admin.register(Sanction)
class SanctionAdmin(_ReadOnly):
    list_display = ["at", "tournament", "entry", "kind", "points", "decided_by", "decided_as"]
    list_filter = ["kind", "tournament"]
    list_select_related = ["tournament", "entry__player", "decided_by"]
    search_fields = ["entry__player__last_name", "reason"]
    raw_id_fields = ["entry", "match"]
