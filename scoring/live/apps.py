from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The live board (its own app label, so its tables and migrations stay here)."""

    name = "scoring.live"
    label = "live"
    verbose_name = _("Live board")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.public import marks

        from . import services

        marks.provide_live(services.live_match_ids)  # the pairings' "live" mark
