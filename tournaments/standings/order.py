"""The organiser's tie-break order, typed: read from and written to ``Tournament.tiebreaks``.

Stored as a JSON list of metric keys (empty: the system's default order).
:func:`parse_tiebreaks` accepts the keys people write (``head_to_head``,
``sb`` …), refuses what is not a list, unknown metrics and repeats, with
``standings.*`` problems; :func:`dump_tiebreaks` writes the list back. The
model's ``clean()``, the admin form and the standings pages all read it here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import Problem, RuleViolation

from . import problems
from .metrics import tiebreak_problems
from .types import System

#: The table's main scores: match wins, game points. The first criterion is always one of them.
MAIN_SCORES = ("wins", "points")

#: Keys people (and the demo) write for the core's metrics; the core only knows its own keys.
TIEBREAK_ALIASES = {
    "head_to_head": "h2h",
    "head-to-head": "h2h",
    "match_wins": "wins",
    "game_points": "points",
    "points_for": "points",
    "points_against": "against",
    "sb": "sonneborn_berger",
    "sonneborn-berger": "sonneborn_berger",
    "median": "median_buchholz",
}


@dataclass(frozen=True, slots=True)
class TiebreakOrder:
    """Metric keys in the order they decide ties; empty means the system's default."""

    keys: tuple[str, ...] = ()

    def problems(self) -> list[Problem]:
        return tiebreak_problems(self.keys)


def parse_tiebreaks(stored: Any) -> TiebreakOrder:
    """The typed order from the stored JSON; :class:`RuleViolation` with every problem if bad."""
    if stored in (None, ""):
        stored = []
    if not isinstance(stored, list | tuple) or not all(isinstance(k, str) for k in stored):
        raise RuleViolation(problems.tiebreaks_not_a_list(stored))
    keys = tuple(TIEBREAK_ALIASES.get(k.strip(), k.strip()) for k in stored if k.strip())
    order = TiebreakOrder(keys)
    found = order.problems()
    if found:
        raise RuleViolation(found)
    return order


def main_score_first(keys: tuple[str, ...] | list[str], system: System | str | None) -> tuple[str, ...]:
    """``keys`` with the table's main score as the first criterion.

    The book ranks by the score first ("по наибольшему количеству очков выявлялся
    победитель", part9_competition_rules.ru.txt) and the tie-breaks only separate
    players level on it: a list that starts with Buchholz (the API's own example,
    ``["buchholz"]``) ranked two losers above two winners (issue 43). The score is
    *kept* first rather than the list refused, so a list stored before this rule ranks
    correctly too: a list that does not start with a score gets the system's score in
    front (game points in a round robin, the book's table; match wins otherwise), and
    the same key later in the list is dropped (it could decide nothing more). Always the
    system's, never a score found later in the list: appending a criterion can then
    never change the ones before it. Empty stays empty (the system's default, which
    already starts with its score); a cup is placed by its bracket, not by a score.
    """
    keys = tuple(keys)
    if not keys or system in (System.KNOCKOUT, "knockout") or keys[0] in MAIN_SCORES:
        return keys
    score = "points" if system in (System.ROUND_ROBIN, "round_robin") else "wins"
    return (score, *(k for k in keys if k != score))


def dump_tiebreaks(order: TiebreakOrder) -> list[str]:
    return list(order.keys)
