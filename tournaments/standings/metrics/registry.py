"""Looking metrics up by key, and the default tie-breaks of each competition system."""

from __future__ import annotations

from collections.abc import Iterable

from scoring.rules.errors import Problem, RuleViolation

from ..problems import repeated_metric, unknown_metric
from ..types import System
from . import head_to_head, knockout, opponents, scores  # noqa: F401  (they register)
from .base import _REGISTRY, Metric

DEFAULT_TIEBREAKS: dict[System, tuple[str, ...]] = {
    # The book's round robin: game points scored, then the tied players' own match.
    System.ROUND_ROBIN: ("points", "h2h"),
    System.SWISS: ("wins", "buchholz", "median_buchholz", "sonneborn_berger", "points"),
    # A cup: the bracket alone (players out in one round share a place, tournaments/standings/cup.py).
    System.KNOCKOUT: ("stage",),
    System.SCHEVENINGEN: ("wins", "points", "difference"),
}


def get_metric(key: str) -> Metric:
    """The registered metric for ``key``; an unknown key is a :class:`RuleViolation`."""
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RuleViolation(unknown_metric(key, sorted(_REGISTRY))) from None


def tiebreak_problems(keys: Iterable[str]) -> list[Problem]:
    """What is wrong with a tie-break order: unknown metrics and repeated ones, in order."""
    found: list[Problem] = []
    seen: set[str] = set()
    for key in keys:
        try:
            get_metric(key)
        except RuleViolation as err:
            found.extend(err.problems)
        if key in seen:
            found.append(repeated_metric(key))
        seen.add(key)
    return found


def all_metrics() -> list[Metric]:
    """Every metric, in registration order (for the organiser's picker)."""
    return list(_REGISTRY.values())


def default_tiebreaks(system: System | str) -> tuple[str, ...]:
    return DEFAULT_TIEBREAKS[System(system)]
