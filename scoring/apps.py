from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Results and scoring")

    def ready(self) -> None:
        # A reported or confirmed result changes the tournament's public pages.
        from tournaments.links import match_disputes
        from tournaments.rounds.pairing_manager import withdrawn
        from tournaments.signals import on_match_part, on_owned, watch

        from . import workflow
        from .entry import appeals
        from .models import Dispute, Result, Sanction
        from .records import tasks  # noqa: F401  (the bulk upload task, so a worker registers it)
        from .workflow import event_details

        watch(Result, on_match_part)
        # Every sanction and every step of a dispute (a ruling, an appeal, the jury's decision)
        # moves the standings' version on, like a result (issue 43): a sanction's penalty or
        # disqualification and a ruling's result are never read from a stale kept table.
        watch(Sanction, on_owned)
        watch(Dispute, on_match_part)
        # Webhooks and emails describe results and disputes through these rows.
        event_details.register()
        # A withdrawal anywhere settles the player's pending match through the result workflow,
        # and so does the pairing when a later stage of a fixed schedule seats him.
        withdrawn.register_settler(workflow.settle_pending)
        # The private page lists the player's disputes, rulings and the jury's decisions.
        match_disputes.register(appeals.entry_disputes, appeals.appealable_match)
