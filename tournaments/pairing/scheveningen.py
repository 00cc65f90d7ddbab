"""Scheveningen system (book Part 9): two teams, everyone meets everyone of the other team.

With n players a side there are n rounds; in round r player i of team A meets
player (i + r - 1) mod n of team B, so each player plays exactly once a round
and every cross-team pair exactly once. Sides alternate, so in long nardy with
fixed games nobody is always White. The team match and the individual
standings come from the same individual results — the book's "alongside the
main team match, an individual championship".

Several teams (the book: any even number, halved every round until one team
is left) are a knockout of teams: :func:`team_knockout` reuses the knockout
bracket with teams as entrants.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.rules.errors import RuleViolation
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


@dataclass(frozen=True, slots=True)
class IndividualResult:
    """One individual match: points each scored (e.g. 5:3); the higher score wins."""

    a: PlayerId
    b: PlayerId
    a_points: float
    b_points: float


@dataclass(frozen=True, slots=True)
class TeamScore:
    wins_a: int
    wins_b: int
    points_a: float
    points_b: float
    winner: str | None  # "A", "B", or None when even on wins and points


def team_score(
    results: Iterable[IndividualResult], team_a: Sequence[PlayerId], team_b: Sequence[PlayerId]
) -> TeamScore:
    """Team result: individual match wins, then points scored as the tie-break."""
    in_a, in_b = set(team_a), set(team_b)
    wins_a = wins_b = 0
    pts_a = pts_b = 0.0
    for r in results:
        a_pts, b_pts = (r.a_points, r.b_points)
        a, b = r.a, r.b
        if a in in_b and b in in_a:
            a, b, a_pts, b_pts = b, a, b_pts, a_pts
        if a not in in_a or b not in in_b:
            raise RuleViolation(SCHEVENINGEN.problem("foreign_result", a=r.a, b=r.b))
        pts_a += a_pts
        pts_b += b_pts
        wins_a += a_pts > b_pts
        wins_b += b_pts > a_pts
    if (wins_a, pts_a) == (wins_b, pts_b):
        winner = None
    else:
        winner = "A" if (wins_a, pts_a) > (wins_b, pts_b) else "B"
    return TeamScore(wins_a, wins_b, pts_a, pts_b, winner)


@dataclass(frozen=True, slots=True)
class IndividualStanding:
    player: PlayerId
    wins: int
    points: float
    played: int


def individual_standings(results: Iterable[IndividualResult]) -> list[IndividualStanding]:
    """The individual championship: match wins, then points scored."""
    wins: dict[PlayerId, int] = {}
    points: dict[PlayerId, float] = {}
    played: dict[PlayerId, int] = {}
    for r in results:
        for me, mine, theirs in ((r.a, r.a_points, r.b_points), (r.b, r.b_points, r.a_points)):
            wins[me] = wins.get(me, 0) + (mine > theirs)
            points[me] = points.get(me, 0.0) + mine
            played[me] = played.get(me, 0) + 1
    table = [IndividualStanding(p, wins[p], points[p], played[p]) for p in wins]
    table.sort(key=lambda s: (-s.wins, -s.points, s.player))
    return table


def team_knockout(
    teams: Sequence[KnockoutEntrant], options: KnockoutOptions | None = None
) -> Bracket:
    """Several teams: a knockout halving the field each round (byes if not a power of two)."""
    if len(teams) < 2 or len(teams) % 2:
        raise RuleViolation(SCHEVENINGEN.problem("team_count", count=len(teams)))
    return build_knockout(teams, options or KnockoutOptions(seed_by="draw_number"))
