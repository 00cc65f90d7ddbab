"""The decisions the Swiss generator records, as coded problems of ``pairing.why.*``.

Kept apart from the algorithm so the generator reads as the rules do; the words
live in :mod:`tournaments.pairing.problems` (one catalogue, RU/EN), and every
function here returns a :class:`~scoring.rules.errors.Problem` whose
``details`` hold the ids and scores, so a reader sees names in their language.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from scoring.rules.errors import Problem
from tournaments.pairing.problems import WHY, fmt
from tournaments.pairing.types import PlayerId

__all__ = ["fmt"]

REASON_ODD = "odd"
REASON_NO_OPPONENT = "no_opponent"  # this and the next two: no longer produced, but stored
REASON_UNPAIRABLE = "unpairable"  # rounds carry them, so their words stay
REASON_REPAIR = "repair"
REASON_OPTIMAL = "optimal"

_why = WHY.problem


@lru_cache(maxsize=1024)
def same_group(score: float, size: int) -> Problem:
    """Shared by every table of a group (a problem is immutable, so one instance serves all)."""
    return _why("same_group", score=score, size=size)


def floated_down(player: PlayerId, from_score: float, to_score: float, reason: str) -> Problem:
    return _why("float_down", player=player, reason=reason, **{"from": from_score, "to": to_score})


def floated_up(player: PlayerId, from_score: float, to_score: float) -> Problem:
    return _why("float_up", player=player, **{"from": from_score, "to": to_score})


def float_repeat(player: PlayerId, direction: str) -> Problem:
    return _why("float_repeat", player=player, direction=direction)


def rematch_avoided(player: PlayerId, skipped: list[PlayerId]) -> Problem:
    return _why("rematch_avoided", player=player, skipped=list(skipped))


def halves(player: PlayerId) -> Problem:
    return _why("top_vs_bottom", player=player)


def first_round(rule: str) -> Problem:
    name = "first_round_adjacent" if rule == "adjacent" else "first_round_halves"
    return _why(name, rule=rule)


def first_round_changed(
    rule: str,
    book: Iterable[tuple[PlayerId, PlayerId]],
    blocked: Iterable[tuple[PlayerId, PlayerId]],
    made: Iterable[tuple[PlayerId, PlayerId]],
) -> Problem:
    """Round 1 left the book's order only here: which pairs it had, which may not meet, the new."""
    return _why(
        "first_round_changed",
        rule=rule,
        book=[list(p) for p in book],
        blocked=[list(p) for p in blocked],
        made=[list(p) for p in made],
    )


def colour(white: PlayerId, reason: str) -> Problem:
    return _why("colour", white=white, reason=reason)


def rematch_forced(a: PlayerId, b: PlayerId, allowed: bool) -> Problem:
    return _why("rematch_allowed" if allowed else "rematch_proposed", a=a, b=b)


def bye_pairing(player: PlayerId, score: float, points: float) -> Problem:
    return _why("bye_pairing", player=player, score=score, points=points)


def bye_requested(player: PlayerId, points: float) -> Problem:
    return _why("bye_requested", player=player, points=points)


def bye_absent(player: PlayerId) -> Problem:
    return _why("bye_absent", player=player)


def exact_window(from_score: float, to_score: float, size: int) -> Problem:
    """The groups the exact matcher paired together (``groups_repaired`` is no longer made)."""
    return _why("exact_window", size=size, **{"from": from_score, "to": to_score})


def float_forced(
    player: PlayerId,
    score: float,
    cause: str,
    met: list[PlayerId],
    forbidden: list[PlayerId],
    bye: PlayerId | None,
) -> Problem:
    """Why no better pairing kept ``player`` in the group: whom they met or may not meet."""
    details: dict[str, object] = {"player": player, "score": score, "cause": cause}
    if met:
        details["met"] = list(met)
    if forbidden:
        details["forbidden"] = list(forbidden)
    if bye is not None:
        details["bye"] = bye
    return _why("float_forced", **details)


def forbidden_forced(a: PlayerId, b: PlayerId) -> Problem:
    return _why("forbidden_proposed", a=a, b=b)
