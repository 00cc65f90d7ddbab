"""The bridge from models to the match-rules core: one place every entry path calls.

Forms, the API, the admin and the commands build a :class:`MatchSpec` here and
validate through :func:`scoring.rules.match.check.validate_match`; no rule is repeated
in a view, a template or JavaScript.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.categories import RoundRule, round_rule
from scoring.rules.match.check import recorded_winner_problems, validate_match
from scoring.rules.match.result_kinds import (
    KindVerdict,
    LatenessRule,
    ResultKind,
    TimeControl,
    result_for_kind,
)
from scoring.rules.match.spec import (
    GameEntry,
    MatchSpec,
    MatchValidation,
    Number,
    format_score,
    spec_problems,
)
from scoring.rules.problems.match import MATCH


def rule_for(section, round_number: int, round_length: int | None = None, reason: str = "") -> RoundRule | None:
    """The category table's rule for a section in a round, with recorded overrides.

    ``None`` when there is no section (the tournament's own options apply).
    The section's own length/cube, then the round's length, override the
    table; each needs a reason, which the core insists on.
    """
    if section is None:
        return None
    category = section.rule_category or section.min_category
    length = round_length or (section.match_length if section.match_length else None)
    cube = section.cube
    why = reason or section.override_reason
    return round_rule(category, round_number, length=length, cube=cube, reason=why or None)


def tournament_spec(tournament, *, length: int | None = None, cube: bool | None = None, **extra: Any) -> MatchSpec:
    """The tournament's match options as a core :class:`MatchSpec`."""
    points = tournament.match_format == "points"
    return MatchSpec(
        length=(length or tournament.match_length) if points else None,
        fixed_games=None if points else tournament.fixed_games,
        scoring=tournament.scoring,
        cube=tournament.cube if cube is None else cube,
        crawford=tournament.crawford,
        holland=tournament.holland,
        jacoby=tournament.jacoby,
        beaver=tournament.beaver,
        raccoon=tournament.raccoon,
        autodoubles=tournament.autodouble_limit,
        max_cube=tournament.max_cube,
        draw=None if points else Fraction(tournament.draw_value).limit_denominator(2),
        must_decide=tournament.system == "knockout",
        **extra,
    )


def tournament_problems(tournament) -> list[Problem]:
    """Contradictions in a tournament's own options (e.g. Jacoby in a match)."""
    return spec_problems(tournament_spec(tournament))


def time_control(tournament, match=None) -> TimeControl:
    """The time control as the core's data (limit per move, clock policy): the tournament's,
    or — when the director installed clocks on one match (Part 9) — that match's clock."""
    if match is not None and match.clock_minutes_per_point:
        return TimeControl(
            move_seconds=tournament.move_seconds,
            minutes_per_point=match.clock_minutes_per_point,
            delay_seconds=match.clock_delay_seconds or 0,
            increment_seconds=match.clock_increment_seconds or 0,
        )
    return TimeControl(
        move_seconds=tournament.move_seconds,
        minutes_per_point=tournament.clock_minutes_per_point,
        delay_seconds=tournament.clock_delay_seconds or 0,
        increment_seconds=tournament.clock_increment_seconds or 0,
    )


def lateness_rule(tournament) -> LatenessRule:
    return LatenessRule(tournament.late_penalty_minutes, tournament.late_forfeit_minutes)


def time_problems(tournament) -> list[Problem]:
    """The time control's and the lateness rule's own contradictions (the settings form shows them)."""
    return time_control(tournament).problems() + lateness_rule(tournament).problems()


def match_spec(match) -> MatchSpec:
    """The options under which one paired match is played (with the score it starts from)."""
    spec = _match_spec(match)
    start = (match.start_a or 0, match.start_b or 0)
    if start != (0, 0):
        spec = replace(spec, start=start)
    return spec


def _match_spec(match) -> MatchSpec:
    rnd = match.round
    tournament = rnd.tournament
    section = rnd.section or (match.entry_a.section if match.entry_a_id else None)
    rule = None
    if section is not None:
        try:
            rule = rule_for(section, rnd.number, rnd.match_length, rnd.length_override_reason)
        except RuleViolation:
            rule = None  # an unexplained override is refused where it is set, not here
    if rule is not None:
        return tournament_spec(
            tournament, length=match.match_length or rule.length, cube=rule.cube,
            category=rule.category.number, round=rule.round, organiser_override=rule.overridden,
        )
    return tournament_spec(tournament, length=match.match_length or rnd.match_length)


def game_entries(games: Iterable[Mapping[str, Any]]) -> list[GameEntry]:
    return [
        GameEntry(
            winner=g.get("winner") or None,
            kind=g.get("kind", ""),
            cube=int(g.get("cube") or 1),
            dropped=bool(g.get("dropped")),
            autodoubles=int(g.get("autodoubles") or 0),
        )
        for g in games
    ]


def validate_result(match, *, final: Sequence[Number] | None = None,
                    games: Iterable[Mapping[str, Any]] | None = None,
                    kind: str = ResultKind.PLAYED, winner: str | None = None) -> MatchValidation:
    """Check a reported result of ``match`` against its options: THE entry point for every shell.

    A played result goes through the match core; a forfeit, double forfeit, time
    forfeit or void result is checked by :func:`scoring.rules.match.result_kinds.result_for_kind`
    (the winner must fit the kind) and its stored score must not be below the score
    the match started from; :func:`kind_result` computes that score by the organiser's rule.
    """
    if kind and kind != ResultKind.PLAYED:
        spec = match_spec(match)
        verdict = result_for_kind(spec, kind, winner, rule="played")  # the kind and its winner
        problems = list(verdict.problems)
        score = tuple(final) if final is not None else verdict.score
        if not problems and any(f < s for f, s in zip(score, spec.start, strict=True)):
            problems.append(
                MATCH.problem("below_start", score=format_score(score), start=format_score(spec.start))
            )
        ok = not problems
        return MatchValidation(ok, tuple(problems), (score[0], score[1]), verdict.winner, decided=ok)
    ledger = game_entries(games) if games else None
    return validate_match(match_spec(match), games=ledger, final=final)


def _as_validation(verdict: KindVerdict) -> MatchValidation:
    return MatchValidation(verdict.ok, verdict.problems, verdict.score, verdict.winner, decided=verdict.ok)


def kind_result(match, kind: str, winner: str | None, *, played: Sequence[Number] | None = None,
                games_played: int = 0) -> MatchValidation:
    """The official score of a non-played result of ``match`` by the tournament's forfeit rule."""
    tournament = match.round.tournament
    verdict = result_for_kind(
        match_spec(match), kind, winner, rule=tournament.forfeit_score, played=played,
        games_played=games_played,
    )
    return _as_validation(verdict)


def stored_result_problems(match, *, score: Sequence[Number | None], kind: str, winner: str,
                           games: Iterable[Mapping[str, Any]] | None, winner_required: bool
                           ) -> tuple[Problem, ...]:
    """A result as it is stored (a restored archive's row), checked exactly as a typed one.

    A typed result can only be stored after :func:`validate_result` accepted it; a
    stored one read from elsewhere (an archive) has not been through it, so it goes
    through the same call, and its recorded ``winner`` must be the one the score
    gives. ``winner_required``: the official ledger (``Match``) always names the
    winner of a decided match; a report (``Result``) names one only for a result
    without play. A match that cannot end level (book, Part 9: a knockout) is the
    core's ``must_decide``, so a level score with a winner is refused there.
    """
    if score[0] is None or score[1] is None:
        half = score[0] is not None or score[1] is not None
        return (MATCH.problem("bad_input", field="score", expected_input="final"),) if half else ()
    verdict = validate_result(match, final=(score[0], score[1]), games=games or None,
                              kind=kind or ResultKind.PLAYED, winner=winner or None)
    if not verdict.ok:
        return verdict.problems
    return tuple(recorded_winner_problems(verdict.winner, winner, required=winner_required))
