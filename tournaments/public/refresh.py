"""The standings rebuilt by a worker after a change, so the first visitor does not pay (issue 32).

Building a 10,000-player Swiss's standings takes about two seconds (reading 25,000
matches, ranking, formatting). Kept under the tournament's versions (:mod:`tournaments.cache`),
the first reader after each result paid it. Now a result confirmed, a round published or
closed queues :func:`refresh_standings`: a worker builds the standings' first page and the
overview (which shows the leaders), in Russian and English, and the API's first page (with
the standings' ``version``) into the shared cache, where every web process finds
them. A burst of confirmations queues one rebuild a second per tournament
(:data:`REFRESH_SECONDS`): the page keeps its previous version meanwhile (``stale_ok``).

Without a broker (tasks run eagerly: development, tests) nothing is queued: a rebuild in
the request that confirmed would only move the cost onto the player confirming.
"""

from __future__ import annotations

from celery import current_app, shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from tournaments.api.tables import cached_row_count, cached_standings_page, cached_standings_version
from tournaments.events import Event
from tournaments.jobs.progress import later
from tournaments.models import Tournament

from .views import cached_overview, cached_standings

#: Events after which the standings differ.
CHANGES_STANDINGS = frozenset({"standings.changed", "round.published", "round.repaired", "round.finished"})
#: At most one rebuild queued per tournament in this many seconds; it runs at the end of them.
REFRESH_SECONDS = 1


def _queued_key(tournament_id: int) -> str:
    return f"zarik:tournament:{tournament_id}:standings-refresh"


@shared_task(name="tournaments.refresh_standings", ignore_result=True)
def refresh_standings(tournament_id: int) -> bool:
    """Build the standings' first page and the overview (each language) and the API's first
    page into the cache; False
    when the tournament is gone or not public (its pages are not read by everyone)."""
    cache.delete(_queued_key(tournament_id))  # a change from now on queues the next rebuild
    tournament = Tournament.objects.filter(pk=tournament_id, public=True).first()
    if tournament is None:
        return False
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            cached_standings(tournament).load()  # read when used: build it now
            cached_overview(tournament).load()
            cached_standings_page(tournament)
            cached_row_count(tournament)
            cached_standings_version(tournament)  # the API's sync fingerprint (kept per language)
    return True


def on_event_refresh(event: Event) -> None:
    """The events handler: queue a rebuild of the standings, at most one a tournament at a time."""
    if event.name not in CHANGES_STANDINGS or current_app.conf.task_always_eager:
        return
    if cache.add(_queued_key(event.tournament_id), 1, REFRESH_SECONDS * 10):
        later(refresh_standings, event.tournament_id, countdown=REFRESH_SECONDS)
