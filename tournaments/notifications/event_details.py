"""What an event is about, in names and numbers: the ``data`` of a webhook and the facts of an email.

:func:`tournaments.events.emit` carries ids only (a round, a match, a result, a
dispute). Integrators and players want names: the round number, the table,
both players, the score. ONE table, :data:`DETAILS`, maps a key of the event's
data to a function that turns the id into a small JSON-ready dict. The
tournaments app fills the rows for rounds and matches; the scoring app, which
owns results and disputes, adds its rows from ``ScoringConfig.ready`` through
:func:`provide` (the dependency points down: this module never imports scoring).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.events import Event
from tournaments.models import Entry, Match, Registration, Round

Detail = Callable[[int], dict[str, Any] | None]


def _entry(entry: Entry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    player = entry.player
    return {
        "entry": entry.pk,
        "player": player.pk,
        "name": player.full_name,
        "name_latin": player.latin_name,
        "draw_number": entry.draw_number,
    }


def _round(pk: int) -> dict[str, Any] | None:
    rnd = Round.objects.select_related("section").filter(pk=pk).first()
    if rnd is None:
        return None
    matches = rnd.matches.select_related("entry_a__player", "entry_b__player").order_by("table", "pk")
    pairings = [
        {"match": m.pk, "table": m.table, "a": _entry(m.entry_a), "b": _entry(m.entry_b)} for m in matches
    ]  # the pairings themselves (issue 28): a receiver posts them without reading the API back
    return {
        "id": rnd.pk,
        "number": rnd.number,
        "section": rnd.section.name if rnd.section else None,
        "status": rnd.status,
        "matches": len(pairings),
        "pairings": pairings,
    }


def match_length(match: Match) -> dict[str, Any]:
    """How long the match is: points to win, or a fixed number of games."""
    tournament = match.round.tournament
    if tournament.match_format == "games":
        return {"format": "games", "games": tournament.fixed_games}
    return {
        "format": "points",
        "points": match.match_length or match.round.match_length or tournament.match_length,
    }


def _match(pk: int) -> dict[str, Any] | None:
    match = (
        Match.objects.select_related("round__tournament", "entry_a__player", "entry_b__player")
        .filter(pk=pk)
        .first()
    )
    if match is None:
        return None
    confirmed = match.result_status == "confirmed"
    return {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table,
        "a": _entry(match.entry_a),
        "b": _entry(match.entry_b),
        "length": match_length(match),
        "result_status": match.result_status,
        "score": [_plain(match.score_a), _plain(match.score_b)] if confirmed else None,
        "result_kind": match.result_kind,
    }


def _plain(score):
    """A stored score as a JSON number: 5, or 2.5 for a half (never a Decimal's string)."""
    return score if score is None or isinstance(score, int) else float(score)


def _entry_by_id(pk: int) -> dict[str, Any] | None:
    entry = Entry.objects.select_related("player").filter(pk=pk).first()
    described = _entry(entry)
    if described is not None:
        described["status"] = entry.status
    return described


def _registration(pk: int) -> dict[str, Any] | None:
    """An application as the organiser's list shows it, without the applicant's email or phone."""
    reg = Registration.objects.filter(pk=pk).first()
    if reg is None:
        return None
    return {"id": reg.pk, "name": f"{reg.last_name} {reg.first_name}".strip(), "category": reg.category,
            "status": reg.status}  # fmt: skip


#: Key of an event's data → the function that describes the object it names.
DETAILS: dict[str, Detail] = {
    "round": _round,
    "match": _match,
    "entry": _entry_by_id,
    "registration": _registration,
}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


def _object(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


INT, STR = {"type": "integer"}, {"type": "string"}
ENTRY = _object(entry=INT, player=INT, name=STR, name_latin=STR, draw_number=_nullable(INT))
SCORE = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}

#: Key of an event's data → the shape of what a webhook's ``data`` carries under it
#: (OpenAPI 3.0 JSON schema): the described object for an id key, the value itself for
#: the rest. The schema's ``WebhookEvent…`` components and the manual's event table are
#: made from it and :data:`tournaments.events.EVENTS`; a test checks real payloads against it.
SHAPES: dict[str, dict[str, Any]] = {
    "round": _object(
        id=INT, number=INT, section=_nullable(STR), status=STR, matches=INT,
        pairings={"type": "array", "items": _object(match=INT, table=_nullable(INT), a=ENTRY, b=_nullable(ENTRY))},
    ),
    "match": _object(
        id=INT, round=INT, table=_nullable(INT), a=ENTRY, b=_nullable(ENTRY),
        length={"type": "object", "properties": {"format": {"type": "string", "enum": ["points", "games"]},
                                                  "points": INT, "games": INT}, "required": ["format"]},
        result_status=STR, score=_nullable(SCORE), result_kind=STR,
    ),
    "number": {**INT, "description": "the round's number"},
    "entries": {"type": "array", "items": ENTRY, "description": "the entries whose pairing changed"},
    "unconfirmed": {**INT, "description": "results of the round still to confirm"},
    "entry": {**_object(entry=INT, player=INT, name=STR, name_latin=STR, draw_number=_nullable(INT), status=STR),
              "description": "the entry and its status now"},
    "reason": {**STR, "description": "the reason given (may be empty)"},
    "registration": _object(id=INT, name=STR, category=_nullable(INT), status=STR),
}  # fmt: skip


def provide(key: str, detail: Detail | None, shape: dict[str, Any]) -> None:
    """Add the row of a key owned by an app above this one (scoring: ``result``, ``dispute``):
    how to describe its id (``None``: a plain value) and the shape a webhook carries."""
    if detail is not None:
        DETAILS[key] = detail
    SHAPES[key] = shape


def describe(event: Event) -> dict[str, Any]:
    """The event's data with every known id replaced by its description (plain JSON values)."""
    out: dict[str, Any] = {}
    for key, value in event.data.items():
        detail = DETAILS.get(key)
        if detail is not None and isinstance(value, int) and not isinstance(value, bool):
            out[key] = detail(value) or {"id": value}
        else:
            out[key] = value
    if "entries" in out:
        entries = Entry.objects.select_related("player").filter(pk__in=out["entries"] or [])
        out["entries"] = [_entry(e) for e in entries.order_by("draw_number", "pk")]
    return out
