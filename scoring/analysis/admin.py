"""The back office sees analyses (read-only: they come from gnubg) and the settings."""

from django.contrib import admin

from .models import AnalysisSettings, MatchAnalysis, PlayerAnalysisChoice


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(admin.ModelAdmin):
    list_display = ("match", "tournament", "state", "plies", "pr_a", "pr_b", "seconds", "finished_at")
    list_filter = ("state", "plies")
    readonly_fields = [f.name for f in MatchAnalysis._meta.fields]
    exclude = ("report",)

    def has_add_permission(self, request) -> bool:
        return False


admin.site.register(AnalysisSettings)
admin.site.register(PlayerAnalysisChoice)
