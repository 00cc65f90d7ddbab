"""Scheveningen system (book Part 9): two teams, everyone meets everyone of the other team.

With n players a side there are n rounds; in round r player i of team A meets
player (i + r - 1) mod n of team B, so each player plays exactly once a round
and every cross-team pair exactly once. Sides alternate, so in long nardy with
fixed games nobody is always White. The team match and the individual
standings come from the same individual results — the book's "alongside the
main team match, an individual championship"; the team match is scored by the
standings core (:mod:`tournaments.standings.team_match`), the one place for it.

Several teams (the book: any even number, halved every round until one team
is left) are a knockout of teams: :func:`team_knockout` reuses the knockout
bracket with teams as entrants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import Problem, RuleViolation
from tournaments.pairing.knockout import (
    Bracket,
    KnockoutEntrant,
    KnockoutOptions,
    build_knockout,
)
from tournaments.pairing.problems import SCHEVENINGEN, WHY
from tournaments.pairing.types import Pairing, PlayerId


@dataclass(frozen=True, slots=True)
class ScheveningenRound:
    round: int
    pairings: tuple[Pairing, ...]  # ``a`` is always from team A


def scheveningen(
    team_a: Sequence[PlayerId], team_b: Sequence[PlayerId]
) -> tuple[ScheveningenRound, ...]:
    """All n rounds at once; board order is team A's order."""
    if len(team_a) != len(team_b) or not team_a:
        raise RuleViolation(
            SCHEVENINGEN.problem("team_sizes", size_a=len(team_a), size_b=len(team_b))
        )
    if len(set(team_a) | set(team_b)) != 2 * len(team_a):
        raise RuleViolation(SCHEVENINGEN.problem("duplicate"))
    n = len(team_a)
    rounds = []
    for r in range(n):
        pairings = []
        for i, a in enumerate(team_a):
            b = team_b[(i + r) % n]
            white = a if (i + r) % 2 == 0 else b
            note = WHY.problem("board", board=i + 1, opponent_board=(i + r) % n + 1)
            pairings.append(Pairing(i + 1, a, b, white, notes=(note,)))
        rounds.append(ScheveningenRound(r + 1, tuple(pairings)))
    return tuple(rounds)


def lineup_problems(
    teams: Sequence[tuple[str, int]], withdrawn: Sequence[tuple[str, int, str]] = ()
) -> list[Problem]:
    """Why these line-ups (each team's name and number of players) cannot be paired.

    Every player of one team meets every player of the other, one match a round (book
    Part 9), so n players a side play n rounds — a 4-player team against a 3-player team
    has no such schedule: someone would sit out every round and the team match would
    have more boards on one side. The book describes no uneven match, so uneven teams are
    refused (before the draw of numbers, while the teams are made), and so is a team
    with nobody on it. Empty list: the line-ups can be paired.

    ``withdrawn`` names each member (team, board, player) who has left the event while the
    line-ups can still change (before the schedule is drawn). He is not seated: a round
    robin leaves a player who withdrew before the draw out of the field, and a Scheveningen
    schedule is built from the boards, so without him his team is one board short — the
    uneven match refused above. The organiser puts another player on his board or takes
    him off (and one off the other team), rather than draw a schedule of forfeits known in
    advance. A withdrawal after the draw is settled like any fixed schedule's.
    """
    out: list[Problem] = [
        SCHEVENINGEN.problem("withdrawn_member", team=team, board=board, player=player)
        for team, board, player in withdrawn
    ]
    for name, size in teams:
        if size == 0:
            out.append(SCHEVENINGEN.problem("empty_team", team=name))
    sizes = {size for _name, size in teams if size}
    if len(sizes) > 1:
        listing = ", ".join(f"«{name}» — {size}" for name, size in teams)
        out.append(SCHEVENINGEN.problem("uneven_teams", sizes=listing))
    return out


def team_knockout(
    teams: Sequence[KnockoutEntrant], options: KnockoutOptions | None = None
) -> Bracket:
    """Several teams: a knockout halving the field each round (byes if not a power of two)."""
    if len(teams) < 2 or len(teams) % 2:
        raise RuleViolation(SCHEVENINGEN.problem("team_count", count=len(teams)))
    return build_knockout(teams, options or KnockoutOptions(seed_by="draw_number"))
