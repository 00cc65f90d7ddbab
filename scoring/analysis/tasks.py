"""Celery side of match analysis: one task = one worker's turn at the fair queue.

Each request sends one ``analysis.run_next``; the task runs whichever queued analysis is
fairest now (:func:`scoring.analysis.services.claim_next`), not a fixed match, so a round's
bulk in one event and a single match in another share the workers. With no broker the
task runs in-process (the embedded default), as every Zarik job does.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.jobs.progress import later

from . import services


@shared_task(name="analysis.run_next", acks_late=True)
def run_next_task() -> dict:
    row = services.run_next()
    if row is None:
        return {"state": "idle"}
    return {"match": row.match_id, "state": row.state}


def send() -> None:
    later(run_next_task, long=True)  # never inside the request, even with no broker (issue 45)


services.set_task_sender(send)
