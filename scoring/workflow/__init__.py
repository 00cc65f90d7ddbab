"""The result workflow: report and confirm, disputes and rulings, results without play,
sanctions, leaving the event — one module per kind of action, on the ground of :mod:`.base`.

Pages, the API, the admin and commands all call these functions (``from scoring import
workflow``; ``workflow.submit_result(…)``), so a rule lives in one place. ``problems`` is the
``workflow.*`` catalogue; ``event_details`` tells webhooks and emails about results and disputes.
"""

from .base import (
    InvalidResult,
    ResultError,
    StaleVersion,
    Visible,
    account,
    check_result,
    clean_games,
    lock_match,
    others_reports,
    player_side,
    refuse,
)
from .disputes import appeal_dispute, decide_appeal, dispute_result, rule_dispute, ruled_results
from .kinds import apply_lateness, install_clock, match_timing, record_kind_result
from .reports import confirm_on, confirm_result, report_on, submit_result
from .sanctions import record_sanction
from .withdrawals import SETTLE_CHOICES, remove_entry, settle_pending, void_past

__all__ = [
    "SETTLE_CHOICES",
    "InvalidResult",
    "ResultError",
    "StaleVersion",
    "Visible",
    "account",
    "appeal_dispute",
    "apply_lateness",
    "check_result",
    "clean_games",
    "confirm_on",
    "confirm_result",
    "decide_appeal",
    "dispute_result",
    "install_clock",
    "lock_match",
    "match_timing",
    "others_reports",
    "player_side",
    "record_kind_result",
    "record_sanction",
    "refuse",
    "remove_entry",
    "report_on",
    "rule_dispute",
    "ruled_results",
    "settle_pending",
    "submit_result",
    "void_past",
]
