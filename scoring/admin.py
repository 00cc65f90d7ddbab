from django.contrib import admin

from tournaments import audit

from .models import Dispute, Result, Sanction


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = [
        "match",
        "score_a",
        "score_b",
        "state",
        "reported_by",
        "confirmed_by",
        "reported_at",
    ]
    list_filter = ["state", "match__round__tournament"]
    search_fields = ["match__entry_a__player__last_name", "match__entry_b__player__last_name"]
    raw_id_fields = ["match"]

    def save_model(self, request, obj, form, change):
        """Back-office edits bypass the workflow pages, so they are audited here."""
        before = audit.snapshot(Result.objects.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        audit.record(
            request.user,
            obj.match.round.tournament,
            "result.admin_change" if change else "result.admin_add",
            obj,
            before,
            obj,
            reason=obj.note,
        )


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
    search_fields = ["reason", "ruling", "jury_decision"]
    raw_id_fields = ["match", "result", "decided_result"]


@admin.register(Sanction)
class SanctionAdmin(_ReadOnly):
    list_display = ["at", "tournament", "entry", "kind", "points", "decided_by", "decided_as"]
    list_filter = ["kind", "tournament"]
    search_fields = ["entry__player__last_name", "reason"]
    raw_id_fields = ["entry", "match"]
