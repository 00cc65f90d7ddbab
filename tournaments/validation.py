"""The bridge from models to the match-rules core: one place every entry path calls.

Forms, the API, the admin and the commands build a :class:`MatchSpec` here and
validate through :func:`scoring.rules.match.validate_match`; no rule is repeated
in a view, a template or JavaScript.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from scoring.rules.categories import RoundRule, round_rule
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match import validate_match
from scoring.rules.match_spec import GameEntry, MatchSpec, MatchValidation, spec_problems


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
        **extra,
    )


def tournament_problems(tournament) -> list[Problem]:
    """Contradictions in a tournament's own options (e.g. Jacoby in a match)."""
    return spec_problems(tournament_spec(tournament))


def match_spec(match) -> MatchSpec:
    """The options under which one paired match is played."""
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


def validate_result(match, *, final: tuple[int, int] | None = None,
                    games: Iterable[Mapping[str, Any]] | None = None) -> MatchValidation:
    """Check a reported result of ``match`` against its options: THE entry point for every shell."""
    ledger = game_entries(games) if games else None
    return validate_match(match_spec(match), games=ledger, final=final)
