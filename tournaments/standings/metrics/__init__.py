"""The tie-break metrics: one class per metric, registered under a stable key."""

from .base import Metric, register
from .registry import (
    DEFAULT_TIEBREAKS,
    all_metrics,
    default_tiebreaks,
    get_metric,
    tiebreak_problems,
)

__all__ = [
    "DEFAULT_TIEBREAKS",
    "Metric",
    "all_metrics",
    "default_tiebreaks",
    "get_metric",
    "register",
    "tiebreak_problems",
]
