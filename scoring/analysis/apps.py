from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """Match analysis by GNU Backgammon (its own app label, so its tables and migrations stay here)."""

    name = "scoring.analysis"
    label = "analysis"
    verbose_name = _("Match analysis")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.records import match_files

        from . import services, tasks  # noqa: F401  (the tasks, so a worker registers them)

        # A record attached to a match (upload, result form, bulk decision) queues its analysis.
        match_files.on_attach(services.record_attached)
