from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Public pages' cache invalidation, and the export task (so a worker registers it).
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from . import export_tasks, signals  # noqa: F401
        from .apihttp.tokens import forget_found
        from .events import subscribe
        from .models import ApiToken, WebhookSubscription
        from .pairing_manager.status import on_round_closed
        from .round_flow import round_closed
        from .tasks import on_event_emails, on_event_webhooks
        from .webhooks import forget_listeners

        signals.connect()
        # Webhooks and email notifications hear every event after its commit.
        subscribe(on_event_webhooks)
        subscribe(on_event_emails)
        for signal in (post_save, post_delete):  # who listens is cached (webhooks.anyone_listens)
            signal.connect(forget_listeners, sender=WebhookSubscription, dispatch_uid="zarik-webhook-listeners")
        round_closed.connect(on_round_closed, dispatch_uid="zarik-tournament-status")
        for signal in (post_save, post_delete):  # API token lookups are kept per process (apihttp.tokens.find)
            for model in (ApiToken, get_user_model()):
                signal.connect(forget_found, sender=model, dispatch_uid=f"zarik-api-tokens-{model._meta.label_lower}")
