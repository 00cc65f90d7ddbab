"""The project package as an app, so its system checks (zarik/production/checks.py) run with every command."""

from django.apps import AppConfig


class ZarikConfig(AppConfig):
    name = "zarik"
    verbose_name = "Zarik"

    def ready(self) -> None:
        from zarik.production import checks  # noqa: F401  (registers the checks)
