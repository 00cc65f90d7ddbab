from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Public pages' cache invalidation, and every room's Celery tasks (so a worker registers
        # them: autodiscovery only looks for an app's top-level ``tasks`` module).
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from . import signals
        from .api.http.tokens import forget_found
        from .events import subscribe
        from .jobs import export_tasks  # noqa: F401
        from .models import ApiToken, WebhookSubscription
        from .notifications.tasks import on_event_emails, on_event_webhooks
        from .notifications.webhooks import forget_listeners
        from .public.refresh import on_event_refresh
        from .ratings import tasks as rating_tasks  # noqa: F401
        from .registration import services as registration_services  # noqa: F401 - settle_withdrawals_task
        from .rounds import tasks as round_tasks  # noqa: F401
        from .rounds.flow import round_closed, round_reopened
        from .rounds.pairing_manager.status import on_round_finished_or_reopened

        signals.connect()
        # Webhooks and email notifications hear every event after its commit.
        subscribe(on_event_webhooks)
        subscribe(on_event_emails)
        # A worker rebuilds the standings after a change, before the first visitor asks.
        subscribe(on_event_refresh)
        for signal in (post_save, post_delete):  # who listens is cached (webhooks.anyone_listens)
            signal.connect(forget_listeners, sender=WebhookSubscription, dispatch_uid="zarik-webhook-listeners")
        for signal in (round_closed, round_reopened):  # the tournament's status follows its rounds
            signal.connect(on_round_finished_or_reopened, dispatch_uid="zarik-tournament-status")
        for signal in (post_save, post_delete):  # API token lookups are kept per process (apihttp.tokens.find)
            for model in (ApiToken, get_user_model()):
                signal.connect(forget_found, sender=model, dispatch_uid=f"zarik-api-tokens-{model._meta.label_lower}")
