"""Match results: the options a match is played under, and checking what a referee reports.

A result reaches us either game by game (a *ledger*) or as a bare final score
(a *summary*, "5:3"). :func:`validate_match` is the one entry point for every
shell (model validation, admin, API, the ``validate_match`` command), so a
result is accepted or refused for the same reason everywhere.

Sources: Part 9 (match to N points, fixed number of games, Crawford almost
always on in matches, agreed rules are off unless agreed, the equal-moves draw
1:1 in Perm or usually ½, the crosstable "Результаты матчей"), the glossary
(Crawford, post-Crawford, Holland, Jacoby "обычно не применяется в матчах"),
ch10 (cube values, automatic doubles) and ch14 (davé ladder, see
:mod:`scoring.rules.match.cube`). Game values come from
:data:`scoring.rules.variants.SCORING_TABLES`.

Conventions: sides are ``"a"`` and ``"b"``; a draw is ``winner=None,
kind="draw"``; ``cube`` is the stake when the game ended — after a pass, the
value before the refused offer, i.e. exactly what the winner scores; game
numbers in problems are 1-based.

Where things live: :mod:`~scoring.rules.match.spec` the options and result types,
:mod:`~scoring.rules.match.ledger` game-by-game checking, :mod:`~scoring.rules.match.summary`
the final-score search, :mod:`~scoring.rules.match.input` untrusted JSON input; this module
is only the entry point that combines them (:func:`validate_match`,
:func:`validate_match_data`). Import every other name from the module that defines it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.input import parse_match_input
from scoring.rules.match.ledger import _validate_ledger, _winner_of
from scoring.rules.match.spec import (
    GameEntry,
    MatchSpec,
    MatchValidation,
    Number,
    _plain,
    format_score,
    spec_problems,
)
from scoring.rules.match.summary import (
    _check_fixed_summary,
    _check_points_summary,
    _score_numbers,
)
from scoring.rules.problems.match import MATCH

#: Option problems that leave nothing to check the result against.
_STRUCTURAL = frozenset(
    {
        "match.bad_format",
        "match.bad_length",
        "match.bad_fixed_games",
        "match.bad_scoring",
        "match.bad_max_cube",
    }
)


def validate_match(
    spec: MatchSpec,
    games: Sequence[GameEntry] | None = None,
    final: Sequence[Number] | None = None,
) -> MatchValidation:
    """Check a match result — its games, its final score, or both — against its options.

    With games, the ledger is authoritative: every game is checked, the score is
    summed, the Crawford game marked, and a stated final score must equal the
    sum. With only a final score, the check is one of plausibility: could some
    legal sequence of games under these options end exactly so?
    """
    problems = spec_problems(spec)
    if games is None and final is None:
        problems.append(MATCH.problem("nothing_to_check"))
    if any(p.code in _STRUCTURAL for p in problems):
        return MatchValidation(False, tuple(problems), (0, 0), None)
    halves = spec.draw == Fraction(1, 2) and not spec.is_points
    stated = None
    if final is not None:
        stated = _score_numbers(final, halves)
        if stated is None:
            problems.append(
                MATCH.problem(
                    "bad_score",
                    value=_plain_seq(final),
                    halves=halves,
                )
            )
    if games is not None:
        run, found = _validate_ledger(spec, list(games))
        problems.extend(found)
        score = (run.score[0], run.score[1])
        if stated is not None and stated != score:
            problems.append(
                MATCH.problem(
                    "final_mismatch", stated=format_score(stated), ledger=format_score(score)
                )
            )
        decided = run.decided_after is not None
        problems.extend(_level_in_a_knockout(spec, score, decided))
        return MatchValidation(
            ok=not problems,
            problems=tuple(problems),
            score=score,
            winner=_winner_of(spec, score) if decided else None,
            crawford_game=run.crawford_game,
            games=tuple(run.lines),
            decided=decided,
            capped=spec.capped(score),
        )
    if stated is None:
        return MatchValidation(False, tuple(problems), (0, 0), None)
    if any(s < b for s, b in zip(stated, spec.start, strict=True)):
        problems.append(
            MATCH.problem(
                "below_start", score=format_score(stated), start=format_score(spec.start)
            )
        )
        return MatchValidation(False, tuple(problems), stated, None)
    if spec.is_points:
        problems.extend(_check_points_summary(spec, stated))
    else:
        problems.extend(_check_fixed_summary(spec, stated))
    finished = not any(
        p.code in {"match.match_unfinished", "match.final_both_reached"} for p in problems
    )
    problems.extend(_level_in_a_knockout(spec, stated, finished))
    return MatchValidation(
        ok=not problems,
        problems=tuple(problems),
        score=stated,
        winner=_winner_of(spec, stated) if finished else None,
        decided=finished,
        capped=spec.capped(stated),
    )


def recorded_winner_problems(expected: str | None, recorded: str | None, *, required: bool) -> list[Problem]:
    """A stored result's winner against the one its score gives (a restored archive, issue 29).

    ``expected`` is the winner :func:`validate_match` (or the result-kinds core) found;
    ``recorded`` the one stored with the result. ``required``: the official ledger names
    the winner of every decided match; a player's report names one only for a result
    without play.
    """
    expected, recorded = expected or "", recorded or ""
    if recorded and recorded != expected:
        name = "winner_contradicts" if expected else "winner_undecided"
        return [MATCH.problem(name, owner=recorded, winner=expected or None)]
    if required and expected and not recorded:
        return [MATCH.problem("winner_missing", winner=expected)]
    return []


def _level_in_a_knockout(spec: MatchSpec, score: tuple[Number, Number], finished: bool) -> list[Problem]:
    """A finished knockout match that ends level (2:2 of four games) has no one to go through:
    the book settles a tie by more play (Part 9: «назначается дополнительный … тур»), so the
    deciding game is played and entered with the result, never a draw confirmed."""
    if spec.must_decide and finished and score[0] == score[1]:
        return [MATCH.problem("knockout_level", score=format_score(score))]
    return []


def _plain_seq(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def validate_match_data(data: Any) -> MatchValidation:
    """Parse untrusted input and validate it; input errors come back as a failed result."""
    try:
        parsed = parse_match_input(data)
    except RuleViolation as exc:
        return MatchValidation(False, tuple(exc.problems), (0, 0), None)
    return validate_match(parsed.spec, parsed.games, parsed.final)


__all__ = ["validate_match", "validate_match_data"]
