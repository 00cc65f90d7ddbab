"""Background pairing for big fields, with progress the organiser's page can poll.

The task only calls :func:`tournaments.pairing_manager.generate_next`; its
result is plain JSON (round ids, or the refusal's problems as codes and
details), so the page shows them in its reader's language, as the synchronous
path does.
Without a broker (eager mode) the task simply runs in the request.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model

from . import pairing_manager as pm
from .models import Section, Tournament


@shared_task(bind=True, name="tournaments.pair_round")
def pair_round(
    self,
    tournament_id: int,
    section_id: int | None = None,
    user_id: int | None = None,
    reason: str = "",
    absent: list[int] | None = None,
    half_bye: list[int] | None = None,
) -> dict[str, Any]:
    tournament = Tournament.objects.get(pk=tournament_id)
    section = Section.objects.get(pk=section_id, tournament=tournament) if section_id else None
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None

    def progress(done: int, total: int) -> None:
        if not self.request.is_eager:
            self.update_state(
                state="PROGRESS",
                meta={"done": done, "total": total, "tournament": tournament.slug},
            )

    try:
        rounds = pm.generate_next(
            tournament,
            section,
            user=user,
            reason=reason,
            absent=absent or (),
            half_bye=half_bye or (),
            progress=progress,
        )
    except pm.PairingRefused as exc:
        return {
            "ok": False,
            "tournament": tournament.slug,
            "problems": [p.to_data() for p in exc.problems],
        }
    return {"ok": True, "tournament": tournament.slug, "rounds": [r.pk for r in rounds]}
