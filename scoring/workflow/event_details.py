"""The scoring app's rows of :data:`tournaments.notifications.event_details.DETAILS`: results and disputes.

Registered from ``ScoringConfig.ready``, so webhooks and emails (in the tournaments
app) can say the reported score or the ruling without importing this app.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Dispute, Result, Sanction
from tournaments.notifications import event_details


def _result(pk: int) -> dict[str, Any] | None:
    result = Result.objects.filter(pk=pk).first()
    if result is None:
        return None
    return {
        "id": result.pk,
        "score": [result.score_a, result.score_b],
        "state": result.state,
        "reported_side": result.reported_side or None,
        "reported_at": result.reported_at.isoformat() if result.reported_at else None,
        "confirmed_at": result.confirmed_at.isoformat() if result.confirmed_at else None,
    }


def _dispute(pk: int) -> dict[str, Any] | None:
    dispute = Dispute.objects.filter(pk=pk).first()
    if dispute is None:
        return None
    return {
        "id": dispute.pk,
        "state": dispute.state,
        "reason": dispute.reason,
        "ruling": dispute.ruling,
        "ruling_outcome": dispute.ruling_outcome or None,
        "jury_decision": dispute.jury_decision,
        "jury_outcome": dispute.jury_outcome or None,
    }


_INT, _STR, _BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
_NULL_STR = {"type": "string", "nullable": True}
_TIME = {"type": "string", "format": "date-time", "nullable": True}

RESULT_SHAPE = {
    "type": "object",
    "properties": {
        "id": _INT, "score": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
        "state": _STR, "reported_side": _NULL_STR, "reported_at": _TIME, "confirmed_at": _TIME,
    },
    "required": ["id", "score", "state", "reported_side", "reported_at", "confirmed_at"],
}  # fmt: skip
DISPUTE_SHAPE = {
    "type": "object",
    "properties": {
        "id": _INT, "state": _STR, "reason": _STR, "ruling": _STR, "ruling_outcome": _NULL_STR,
        "jury_decision": _STR, "jury_outcome": _NULL_STR,
    },
    "required": ["id", "state", "reason", "ruling", "ruling_outcome", "jury_decision", "jury_outcome"],
}  # fmt: skip


SANCTION_SHAPE = {
    "type": "object",
    "properties": {"id": _INT, "kind": _STR, "points": {"type": "number", "nullable": True}, "game": {**_INT, "nullable": True},
                   "reason": _STR, "decided_as": _STR},
    "required": ["id", "kind", "points", "game", "reason", "decided_as"],
}  # fmt: skip


def _sanction(pk: int) -> dict[str, Any] | None:
    sanction = Sanction.objects.filter(pk=pk).first()
    if sanction is None:
        return None
    return {"id": sanction.pk, "kind": sanction.kind,
            "points": float(sanction.points) if sanction.points is not None else None,
            "game": sanction.game, "reason": sanction.reason, "decided_as": sanction.decided_as}  # fmt: skip


def register() -> None:
    event_details.provide("sanction", _sanction, SANCTION_SHAPE)
    event_details.provide("result", _result, RESULT_SHAPE)
    event_details.provide("dispute", _dispute, DISPUTE_SHAPE)
    event_details.provide("side", None, {"type": "string", "enum": ["a", "b"], "description": "the reporting side"})
    event_details.provide("correction", None, {**_BOOL, "description": "a confirmed result was corrected"})
    event_details.provide("final", None, {**_BOOL, "description": "the jury's ruling: no appeal is left"})
