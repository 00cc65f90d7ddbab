"""Replaying a history of rated matches: ratings are a pure function of the results in order.

:func:`replay` takes a starting table (optional) and the matches in the order they
were played and returns every player's final :class:`~clubs.ratings.fibs.Standing`
and, per match, both players' :class:`Change`. The shell stores exactly this; the
``rate_matches`` command prints it; anyone with the results can reproduce it.

Order matters: a player's change depends on both ratings and on their own
experience at that moment, so swapping two matches of the same player generally
changes the final ratings (the tests show it). The input order is the
chronological order; the shell uses the pool's sequence numbers.

Bad input is never skipped: every problem is collected (coded ``ratings.*``,
naming the match by its number from 1 and both players) and the replay raises
:class:`~scoring.rules.errors.RuleViolation` carrying all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from math import isfinite

from scoring.rules.errors import Problem, RuleViolation

from .fibs import DRAW, LOSS, WIN, Standing, rate, win_probability
from .problems import RATINGS


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One finished match between players ``a`` and ``b`` (any hashable keys: names, ids).

    ``length`` is the match length in points, or the number of games when
    ``games`` is true; then the scores are games won, a drawn game counting ½
    to each, and they add up to ``length``.
    """

    a: Hashable
    b: Hashable
    length: int
    score_a: float
    score_b: float
    games: bool = False

    def result_a(self) -> float:
        """S of player a: 1 win, 0 loss, ½ for a level fixed-games match."""
        if self.games:
            if self.score_a == self.score_b:
                return DRAW
            return WIN if self.score_a > self.score_b else LOSS
        return WIN if self.score_a >= self.length else LOSS


@dataclass(frozen=True, slots=True)
class Change:
    """One player's change from one match (``index`` is the match's place in the input, from 0)."""

    index: int
    player: Hashable
    opponent: Hashable
    length: int
    score_for: float
    score_against: float
    result: float
    expected: float
    rating_before: float
    rating_after: float
    experience_before: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and isfinite(value)


def start_problems(start: Mapping[Hashable, Standing], names: Callable[[Hashable], str] = str) -> list[Problem]:
    """What is wrong with a starting table: a rating not a number, an experience below 0."""
    found = []
    for key, standing in start.items():
        if not _is_number(standing.rating):
            found.append(RATINGS.problem("bad_rating", player=names(key), value=standing.rating))
        if not _is_number(standing.experience) or standing.experience < 0:
            found.append(
                RATINGS.problem("bad_experience", player=names(key), value=standing.experience)
            )
    return found


def match_problems(
    index: int,
    match: RatedMatch,
    known: Mapping[Hashable, object] | None = None,
    names: Callable[[Hashable], str] = str,
) -> list[Problem]:
    """Why ``match`` (at ``index``, from 0) cannot be rated; empty when it can.

    ``known``: when given, both players must be in it (a strict starting table).
    """
    place = {"index": index + 1, "a": names(match.a), "b": names(match.b)}
    found = []
    if known is not None:
        for key in (match.a, match.b):
            if key not in known:
                found.append(RATINGS.problem("unknown_player", player=names(key), **place))
    if match.a == match.b:
        found.append(RATINGS.problem("same_player", **place))
    n = match.length
    if not _is_number(n) or n < 1 or n != int(n):
        return [*found, RATINGS.problem("bad_length", length=n, **place)]
    x, y = match.score_a, match.score_b
    score = {"score_a": x, "score_b": y, "length": n}
    if not (_is_number(x) and _is_number(y)) or x < 0 or y < 0:
        return [*found, RATINGS.problem("bad_score", **score, **place)]
    if match.games:
        if x + y != n or x > n or y > n or (2 * x) != int(2 * x):
            found.append(RATINGS.problem("games_score", **score, **place))
    elif (x >= n) == (y >= n):
        found.append(RATINGS.problem("points_score", **score, **place))
    return found


def replay(
    start: Mapping[Hashable, Standing] | None,
    matches: Iterable[RatedMatch],
    *,
    strict: bool = False,
    names: Callable[[Hashable], str] = str,
    record: bool = True,
) -> tuple[dict[Hashable, Standing], list[Change]]:
    """Every player's standing after ``matches`` in order, and each match's two changes.

    Players not in ``start`` begin at 1500 with experience 0, unless ``strict``
    (then they are an error). ``record=False`` skips building the changes (bench,
    final ratings only). Raises :class:`RuleViolation` with every problem found.
    """
    table: dict[Hashable, Standing] = dict(start or {})
    problems = start_problems(table, names)
    known = dict(table) if strict and start is not None else None
    changes: list[Change] = []
    new = Standing()
    for index, match in enumerate(matches):
        found = match_problems(index, match, known, names)
        if found:
            problems.extend(found)
            continue
        if problems:
            continue  # keep checking the rest; nothing computed will be returned
        a, b = match.a, match.b
        before_a, before_b = table.get(a, new), table.get(b, new)
        s_a = match.result_a()
        after_a, after_b = rate(before_a, before_b, match.length, s_a)
        table[a], table[b] = after_a, after_b
        if record:
            e_a = win_probability(before_a.rating, before_b.rating, match.length)
            changes.append(Change(
                index, a, b, match.length, match.score_a, match.score_b, s_a, e_a,
                before_a.rating, after_a.rating, before_a.experience,
            ))
            changes.append(Change(
                index, b, a, match.length, match.score_b, match.score_a, 1.0 - s_a, 1.0 - e_a,
                before_b.rating, after_b.rating, before_b.experience,
            ))  # fmt: skip
    if problems:
        raise RuleViolation(problems)
    return table, changes
