"""The Scheveningen team match: the event's main result, from the individual matches.

The book (Part 9, ``part9_competition_rules.ru.txt`` line 9): «В турнире по шевенингенской
системе встречаются две команды, где каждый участник одной команды играет с каждым
участником другой команды в матче из нескольких партий. Таким образом, наряду с основным
командным матчем удаётся провести и личное первенство.» — the team match is the main
event, the individual championship comes alongside it from the same matches. This module
is the one place that scores a team match: the pages, the workbook, the API and the
knockout of several teams (the next stage goes to the winner) all call :func:`team_match`.

Conventions (the book names the team match but not its arithmetic; these are the board
(game) points of team chess, where a team's score is its players' results added up):

* **Match points**: each individual match gives its winner's team 1, a level match (a
  fixed number of games can end level) ½ to each team, a loss 0. The team with more
  match points wins the team match.
* **Points** (the sum of the individual scores, e.g. 5:3 adds 5 and 3) break a tie in
  match points — the book's own crosstable totals points scored («Итого»); level on
  both, the team match is drawn.
* **An absence counts as the forfeit it is** (the ledger's convention, issue 15): a
  forfeit or a loss on time is a match win for the present player's team and a loss for
  the other, its score as the organiser's forfeit rule recorded it; a double forfeit is a
  loss for both (no match point to either team); a void match counts for nobody.
* A match without a result counts nothing yet: the team result is ``final`` only when
  every individual match of the team match has one.

Pure Python: plain :class:`~.types.Match` rows in, plain data out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.rules.match.result_kinds import ResultKind

from .types import Match

#: What one individual match gives team A, by its outcome seen from team A's board.
WIN, DRAW, LOSS = "win", "draw", "loss"
PENDING, VOID, DOUBLE_FORFEIT = "pending", "void", "double_forfeit"
_MATCH_POINTS: dict[str, tuple[Fraction, Fraction]] = {
    WIN: (Fraction(1), Fraction(0)),
    DRAW: (Fraction(1, 2), Fraction(1, 2)),
    LOSS: (Fraction(0), Fraction(1)),
    DOUBLE_FORFEIT: (Fraction(0), Fraction(0)),
}


@dataclass(frozen=True, slots=True)
class TeamLineup:
    """A team as it plays: its id and name, and its players' ids (entries) from board 1 down."""

    id: int
    name: str
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Tally:
    """Team A's and team B's match points and points over some individual matches.

    ``played`` counts the individual matches with a result (forfeits included, void ones
    not), ``pending`` those still to be played or confirmed, ``forfeits`` the results
    nobody played out (forfeit, double forfeit).
    """

    match_points_a: Fraction = Fraction(0)
    match_points_b: Fraction = Fraction(0)
    points_a: Fraction = Fraction(0)
    points_b: Fraction = Fraction(0)
    played: int = 0
    pending: int = 0
    forfeits: int = 0

    @property
    def leader(self) -> str | None:
        """``"a"`` or ``"b"``: ahead on match points, then on points; ``None`` when level."""
        a = (self.match_points_a, self.points_a)
        b = (self.match_points_b, self.points_b)
        if a == b:
            return None
        return "a" if a > b else "b"

    def plus(self, other: Tally) -> Tally:
        return Tally(
            self.match_points_a + other.match_points_a,
            self.match_points_b + other.match_points_b,
            self.points_a + other.points_a,
            self.points_b + other.points_b,
            self.played + other.played,
            self.pending + other.pending,
            self.forfeits + other.forfeits,
        )


@dataclass(frozen=True, slots=True)
class BoardCell:
    """One individual match of the team match, from team A's player's side."""

    round: int
    a: int
    b: int
    score_a: Fraction
    score_b: Fraction
    outcome: str
    """``win``/``draw``/``loss`` for team A's player, ``double_forfeit``, ``pending`` or ``void``."""
    kind: str = ResultKind.PLAYED


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """Two teams' match: per round and in total, with the board-by-board grid.

    ``grid[i][j]`` is the match of team A's board ``i + 1`` against team B's board
    ``j + 1`` (``None`` while not paired). ``rounds`` lists ``(round number, tally)`` in
    round order.
    """

    team_a: TeamLineup
    team_b: TeamLineup
    rounds: tuple[tuple[int, Tally], ...]
    total: Tally
    grid: tuple[tuple[BoardCell | None, ...], ...]

    @property
    def final(self) -> bool:
        """Every paired individual match has its result (and there is at least one)."""
        return self.total.pending == 0 and bool(self.rounds)

    def board_points(self) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
        """Match points of each of team A's boards (rows) and of team B's (columns): each
        player's own part of the team score, counted the same way."""
        rows = [Fraction(0)] * len(self.team_a.players)
        cols = [Fraction(0)] * len(self.team_b.players)
        for i, row in enumerate(self.grid):
            for j, cell in enumerate(row):
                if cell is not None and cell.outcome in _MATCH_POINTS:
                    mine, theirs = _MATCH_POINTS[cell.outcome]
                    rows[i] += mine
                    cols[j] += theirs
        return tuple(rows), tuple(cols)

    @property
    def winner(self) -> str | None:
        """``"a"``/``"b"`` once the match is over and not level; ``None`` otherwise."""
        return self.total.leader if self.final else None


def outcome_for_a(match: Match, a_player: int) -> str:
    """The individual match's outcome for team A's player ``a_player`` (one of its two)."""
    if match.kind == ResultKind.VOID:
        return VOID
    if not match.finished:
        return PENDING
    if match.kind == ResultKind.DOUBLE_FORFEIT:
        return DOUBLE_FORFEIT
    if match.winner is None:
        return DRAW
    return WIN if match.winner == a_player else LOSS


def _tally(cell: BoardCell) -> Tally:
    if cell.outcome == PENDING:
        return Tally(pending=1)
    if cell.outcome == VOID:
        return Tally()
    mine, theirs = _MATCH_POINTS[cell.outcome]
    unplayed = cell.kind in (ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT)
    return Tally(mine, theirs, cell.score_a, cell.score_b, 1, 0, int(unplayed))


def team_match(team_a: TeamLineup, team_b: TeamLineup, matches: Iterable[Match]) -> TeamMatch:
    """Score the team match of ``team_a`` and ``team_b`` from every individual match.

    Matches that are not between a player of each team (a bye, teammates, another team
    match of a multi-team event) are ignored, so the whole event's matches may be passed.
    """
    board_a = {p: i for i, p in enumerate(team_a.players)}
    board_b = {p: j for j, p in enumerate(team_b.players)}
    grid: list[list[BoardCell | None]] = [[None] * len(team_b.players) for _ in team_a.players]
    by_round: dict[int, Tally] = {}
    for m in matches:
        if m.player_b is None:
            continue
        if m.player_a in board_a and m.player_b in board_b:
            a, b, sa, sb = m.player_a, m.player_b, m.score_a, m.score_b
        elif m.player_b in board_a and m.player_a in board_b:
            a, b, sa, sb = m.player_b, m.player_a, m.score_b, m.score_a
        else:
            continue
        outcome = outcome_for_a(m, a)
        counted = outcome not in (PENDING, VOID)
        cell = BoardCell(
            m.round, a, b,
            Fraction(sa) if counted else Fraction(0), Fraction(sb) if counted else Fraction(0),
            outcome, m.kind,
        )  # fmt: skip
        grid[board_a[a]][board_b[b]] = cell
        by_round[m.round] = by_round.get(m.round, Tally()).plus(_tally(cell))
    total = Tally()
    for tally in by_round.values():
        total = total.plus(tally)
    return TeamMatch(
        team_a,
        team_b,
        tuple(sorted(by_round.items())),
        total,
        tuple(tuple(row) for row in grid),
    )


def team_matches(teams: Sequence[TeamLineup], matches: Sequence[Match]) -> list[TeamMatch]:
    """Every pair of teams whose players met, in the teams' order (the first named is team A).

    Two teams: the one team match. More (a knockout of teams, halved every stage): one
    team match per pairing of teams that has been drawn.
    """
    where = {p: t.id for t in teams for p in t.players}
    met: set[tuple[int, int]] = set()
    for m in matches:
        if m.player_b is None:
            continue
        x, y = where.get(m.player_a), where.get(m.player_b)
        if x is not None and y is not None and x != y:
            met.add((x, y))
            met.add((y, x))
    out = []
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if (a.id, b.id) in met:
                out.append(team_match(a, b, matches))
    return out
