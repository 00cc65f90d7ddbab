"""The scoring app's rows of :data:`tournaments.notifications.event_details.DETAILS`: results and disputes.

Registered from ``ScoringConfig.ready``, so webhooks and emails (in the tournaments
app) can say the reported score or the ruling without importing this app.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Dispute, Result
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


def register() -> None:
    event_details.provide("result", _result)
    event_details.provide("dispute", _dispute)
