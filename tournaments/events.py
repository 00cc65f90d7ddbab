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
from typing import Any, NamedTuple

from django.db import transaction

logger = logging.getLogger(__name__)

class EventType(NamedTuple):
    """One row of :data:`EVENTS`: what the event means (EN, RU) and the keys of its ``data``.

    ``data`` is what :func:`emit` is called with for it (checked there), so the webhook
    payloads the schema and the README document are the ones sent; each key's shape is
    :data:`tournaments.notifications.event_details.SHAPES`.
    """

    en: str
    ru: str
    data: tuple[str, ...]


#: Event name → its type. A newcomer adds a row (and emits it). The webhooks form, the
#: ``GET /api/webhook-events/`` list, the OpenAPI schema and the README's table are made from it.
EVENTS: dict[str, EventType] = {
    "round.published": EventType(
        "A round's pairings were published", "Опубликованы пары тура", ("round", "number")
    ),
    "round.repaired": EventType(
        "A published round's pairings were changed", "Изменены пары опубликованного тура",
        ("round", "number", "entries"),
    ),
    "round.finished": EventType(
        "A round was closed: every result confirmed", "Тур закрыт: все результаты подтверждены",
        ("round", "number"),
    ),
    "round.awaiting": EventType(
        "Every match of a round has a result: the round closes once they are confirmed",
        "У всех партий тура есть результат: тур закроется, когда их подтвердят",
        ("round", "number", "unconfirmed"),
    ),
    "result.reported": EventType(
        "A result was reported and awaits confirmation", "Сообщён результат, ждёт подтверждения",
        ("match", "result", "side"),
    ),
    "result.confirmed": EventType(
        "A result was confirmed", "Результат подтверждён", ("match", "result", "correction")
    ),
    "dispute.opened": EventType("A result was disputed", "Результат оспорен", ("match", "dispute")),
    "dispute.ruled": EventType(
        "The director or the jury ruled on a dispute", "Директор или жюри вынесли решение по спору",
        ("match", "dispute", "final"),
    ),
    "standings.changed": EventType("The standings changed", "Изменилась турнирная таблица", ("match",)),
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
    undeclared = set(data) - set(EVENTS[name].data)
    if undeclared:
        raise KeyError(f"event {name!r} declares no data {sorted(undeclared)}: add them to its row in EVENTS")
    event = Event(name, tournament_id, data)

    def deliver() -> None:
        for handler in list(_HANDLERS):
            try:
                handler(event)
            except Exception:  # a listener's failure must not break the workflow
                logger.exception("event handler %r failed on %s", handler, name)

    transaction.on_commit(deliver)
