"""What happens in an event, said once: ONE table of event names, one :func:`emit`.

The result workflow and the round manager call :func:`emit` where something
happens (a round published, a result reported or confirmed, a dispute opened or
ruled on, a round finished); whoever must hear of it — webhooks, email
notifications — subscribes a handler (:func:`subscribe`, in an ``AppConfig.ready``).
Handlers run after the transaction commits, so nobody hears of a change that was
rolled back, and a failing handler never undoes the change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)

#: Event name → (English, Russian) description. A newcomer adds a row (and emits it).
EVENTS: dict[str, tuple[str, str]] = {
    "round.published": ("A round's pairings were published", "Опубликованы пары тура"),
    "round.repaired": ("A published round's pairings were changed", "Изменены пары опубликованного тура"),
    "round.finished": ("A round was closed: every result confirmed", "Тур закрыт: все результаты подтверждены"),
    "round.awaiting": (
        "Every match of a round has a result: the round closes once they are confirmed",
        "У всех партий тура есть результат: тур закроется, когда их подтвердят",
    ),
    "result.reported": ("A result was reported and awaits confirmation", "Сообщён результат, ждёт подтверждения"),
    "result.confirmed": ("A result was confirmed", "Результат подтверждён"),
    "dispute.opened": ("A result was disputed", "Результат оспорен"),
    "dispute.ruled": ("The director or the jury ruled on a dispute", "Директор или жюри вынесли решение по спору"),
    "standings.changed": ("The standings changed", "Изменилась турнирная таблица"),
}


@dataclass(frozen=True)
class Event:
    name: str
    tournament_id: int
    data: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[Event], None]
_HANDLERS: list[Handler] = []


def subscribe(handler: Handler) -> None:
    """Call ``handler(event)`` for every event from now on (idempotent)."""
    if handler not in _HANDLERS:
        _HANDLERS.append(handler)


def emit(name: str, tournament_id: int, **data: Any) -> None:
    """Announce ``name`` once the current transaction commits (at once outside one)."""
    if name not in EVENTS:
        raise KeyError(f"unknown event {name!r}: add it to tournaments.events.EVENTS")
    event = Event(name, tournament_id, data)

    def deliver() -> None:
        for handler in list(_HANDLERS):
            try:
                handler(event)
            except Exception:  # a listener's failure must not break the workflow
                logger.exception("event handler %r failed on %s", handler, name)

    transaction.on_commit(deliver)
