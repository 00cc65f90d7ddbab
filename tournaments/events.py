"""What happens in an event, said once: ONE table of event names, one :func:`emit`.

The result workflow and the round manager call :func:`emit` where something
happens (a round published, a result reported or confirmed, a dispute opened or
ruled on, a round finished); whoever must hear of it — webhooks, email
notifications — subscribes a handler (:func:`subscribe`, in an ``AppConfig.ready``).
Handlers run after the transaction commits, so nobody hears of a change that was
rolled back, and a failing handler never undoes the change.

A draft round is heard of by nobody (:mod:`tournaments.access.visibility`), and that
rule is kept here, once, not by each caller: an event about a match of a round that is
not public is held back (:func:`emit`), and the round's publication announces what was
held (:func:`_announce_settled`). The only thing ever done to a draft's match is a
withdrawal settling a fixed schedule (the workflow's draft guard refuses the rest), so
a subscriber hears ``round.published`` first and then, table by table, each result the
withdrawal settled — every confirmed result exactly once, never before its round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import FilteredRelation, Q

from tournaments.access.visibility import is_public_round
from tournaments.models import Match, ResultKind, ResultStatus

logger = logging.getLogger(__name__)

class EventType(NamedTuple):
    """One row of :data:`EVENTS`: what the event means (EN, RU) and the keys of its ``data``.

    ``data`` is what :func:`emit` is called with for it (checked there), so the webhook
    payloads the schema and the manual document are the ones sent; each key's shape is
    :data:`tournaments.notifications.event_details.SHAPES`.
    """

    en: str
    ru: str
    data: tuple[str, ...]


#: Event name → its type. A newcomer adds a row (and emits it). The webhooks form, the
#: ``GET /api/webhook-events/`` list, the OpenAPI schema and the manual's table are made from it.
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
    # issue 47: the people of the event, not only its rounds and results
    "entry.added": EventType("A player was entered", "Участник внесён в турнир", ("entry",)),
    "entry.checked_in": EventType(
        "A player checked in (or the desk checked them in)", "Участник отметился о прибытии", ("entry",)
    ),
    "entry.withdrawn": EventType(
        "A player withdrew (or was withdrawn) from the event", "Участник выбыл из турнира", ("entry", "reason")
    ),
    "registration.received": EventType(
        "An application to play arrived (pending, or on the waiting list)",
        "Поступила заявка на участие (ждёт решения или в листе ожидания)", ("registration",),
    ),
    "sanction.recorded": EventType(
        "The director or the jury recorded a sanction", "Директор или жюри назначили санкцию",
        ("entry", "sanction"),
    ),
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
    """Announce ``name`` once the current transaction commits (at once outside one).

    ``match`` is given as the :class:`~tournaments.models.Match` itself (the event carries
    its id): every caller holds it, locked with its round, so whether the round is public
    costs no query under the row lock (a report or a confirmation keeps to its statement
    budget, ``tests/scoring/entry/test_query_budget.py``), and an id that could not be
    checked is refused rather than sent unchecked. An event about a match of a draft is
    not sent: its round's publication announces it (:func:`_announce_settled`).
    """
    if name not in EVENTS:
        raise KeyError(f"unknown event {name!r}: add it to tournaments.events.EVENTS")
    undeclared = set(data) - set(EVENTS[name].data)
    if undeclared:
        raise KeyError(f"event {name!r} declares no data {sorted(undeclared)}: add them to its row in EVENTS")
    match = data.get("match")
    if match is not None:
        if not isinstance(match, Match):
            raise TypeError(f"event {name!r}: pass the match itself, not {match!r}, so its round is checked")
        data["match"] = match.pk
        if not is_public_round(match.round):
            return  # held: announced by the round's publication
    _send(Event(name, tournament_id, data))
    if name == "round.published":
        _announce_settled(tournament_id, data["round"])


#: The scoring app's ``ResultState.CONFIRMED``: its results are read here through their relation
#: to the match (``Match.results``), as the round manager's checks do, never by importing scoring
#: (the apps depend one way); a test pins the two equal.
CONFIRMED_RESULT = "confirmed"


def _announce_settled(tournament_id: int, round_id: int) -> None:
    """After ``round.published``: what was held back while the round was a draft, table by table.

    A withdrawal in a fixed schedule settles the player's matches in the drafts too
    (:func:`scoring.workflow.withdrawals.settle_pending`): a forfeit, confirmed, or a void.
    Its ``result.confirmed`` and ``standings.changed`` were held (:func:`emit`); they are
    sent now, as the workflow would have sent them had the round been public: for a forfeit
    ``result.confirmed`` (not a correction: the first anyone hears of it) then
    ``standings.changed``; for a void ``standings.changed`` alone. A round with a result is
    never made a draft again (``unpublish_round`` refuses), so no result is announced twice
    (a round whose only settled match is a voided bye may be: it says again that the
    standings changed, which they did — the round left them and came back); a bye confirmed
    when the round was written is no result and nothing was held for it.

    ``standings.changed`` follows the same rule as the results because the standings do:
    they read published and finished rounds only
    (:func:`tournaments.standings_service.load_event`, through ``public_matches``), so a
    draft's forfeit changes no standings anyone sees until the round is published — telling
    a subscriber they changed would be untrue, and would name a match of a draft. At the
    publication they do change, by exactly these matches: each is announced then, once.
    """
    settled = (
        Match.objects.filter(round_id=round_id, result_status=ResultStatus.CONFIRMED)
        .annotate(confirmed=FilteredRelation("results", condition=Q(results__state=CONFIRMED_RESULT)))
        .filter(Q(confirmed__isnull=False) | Q(result_kind=ResultKind.VOID))
        .order_by("table", "pk")
        .values_list("pk", "confirmed")
    )
    for match_id, result_id in settled:
        if result_id is not None:
            _send(Event("result.confirmed", tournament_id, {"match": match_id, "result": result_id,
                                                              "correction": False}))
        _send(Event("standings.changed", tournament_id, {"match": match_id}))


def _send(event: Event) -> None:
    """Hand ``event`` to every handler once the current transaction commits."""

    def deliver() -> None:
        for handler in list(_HANDLERS):
            try:
                handler(event)
            except Exception:  # a listener's failure must not break the workflow
                logger.exception("event handler %r failed on %s", handler, event.name)

    transaction.on_commit(deliver)
