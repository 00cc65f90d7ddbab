"""Each player's finished matches, seen from their side, computed once per ranking.

Every metric reads the same per-player view (opponent, points for and against,
result), so building it once keeps a 1,000-player Swiss well under a second and
keeps the rules for byes, draws and forfeits in one place instead of in every metric.

Forfeits (issue 15), the convention: a forfeit counts as a match win for the
winner and a loss for the other (its score, by the organiser's rule, counts in
game points); a double forfeit is a loss for both; a void match counts for
nobody and is not pending either. For opponent-based tie-breaks (Buchholz,
median Buchholz, Sonneborn-Berger) a forfeited game is *unplayed* (``Game.unplayed``)
and is valued like a bye — by default through FIDE's virtual opponent (FIDE
Handbook C.07, tie-break regulations, "unplayed games": an opponent with the
player's own score before the round, who draws every later round; see
:class:`~.types.ByeValue`). Why: the winner should neither gain from a strong
opponent they never played nor lose from a weak one who walked away, and the
loser's walk-over must not lift the Buchholz of someone who never met them.
A time forfeit was played over the board, so it counts as a played match.

A round robin is different on two points (issue 35):

* its free round (the bye of an odd field, the Berger table's dummy number) is no
  game: it adds nothing to match wins, points or any tie-break, whichever round the
  table gave it in — every player of an odd field has exactly one per cycle;
* an unplayed game still has its real, scheduled opponent, so the opponent-strength
  sums (Sonneborn-Berger) count it as played against that opponent. Source: FIDE
  Handbook C.07, Tie-Break Regulations (2023, 2024), the article on unplayed games:
  the virtual opponent is a device of the Swiss system; in round-robin tournaments an
  unplayed game is taken into tie-breaks as if played against the scheduled opponent
  (:func:`~.metrics.opponents.opponent_scores`).

Values are exact: each metric's values are rounded to :data:`EXACT_PLACES` decimals as
they are computed, so float noise (``217.51999999999998``) neither splits a real tie
nor reaches a page; the rows carry them as :class:`~decimal.Decimal`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Protocol, TypeVar

from scoring.rules.match.result_kinds import UNPLAYED, ResultKind

from .types import Adjustment, Match, MatchStatus, Player, Score, StandingsOptions, System

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
# Looked up once: an enum member read off its class costs more than the comparison, and the
# ledger compares every match (25,000 in a 10,000-player Swiss's standings).
_VOID, _DOUBLE_FORFEIT, _FINISHED = ResultKind.VOID, ResultKind.DOUBLE_FORFEIT, MatchStatus.FINISHED
T = TypeVar("T")

#: Decimals every metric value is rounded to: scores are whole or halves, Sonneborn-Berger
#: reaches quarters, only the Swiss virtual opponent's average pace is finer.
EXACT_PLACES = 6


def exact(value: float) -> float:
    """``value`` without float noise (217.51999999999998 → 217.52)."""
    return round(value + 0.0, EXACT_PLACES)


@dataclass(slots=True)
class Game:
    """One finished match (or bye) from one player's side.

    Read-only by convention, not ``frozen``: a frozen dataclass sets each field through
    ``object.__setattr__``, five times slower to build, and a ranking builds two per match
    (50,000 for a 10,000-player Swiss's cold standings, issue 32). Only the ledger makes them.
    """

    round: int
    opponent: int | None
    score_for: Score
    score_against: Score
    result: float
    gammons: int
    unplayed: bool = False

    @property
    def is_bye(self) -> bool:
        return self.opponent is None

    @property
    def met(self) -> bool:
        """An opponent was met over the board (no bye, no forfeit)."""
        return self.opponent is not None and not self.unplayed


def main_score_key(options: StandingsOptions) -> str:
    """The table's main score: the first criterion when it is a score, else the score basis.

    A penalty "from tournament points" is taken from this metric.
    """
    if options.tiebreaks and options.tiebreaks[0] in ("wins", "points"):
        return options.tiebreaks[0]
    return options.score_basis or "wins"


class Computes(Protocol):
    """What the ledger needs of a metric: everyone's value from this ledger."""

    def compute(self, ledger: Ledger) -> dict[int, float]: ...


class Ledger:
    """The finished results of one group of players plus a cache of metric values.

    Metrics ask the ledger for other metrics' values (Buchholz needs everyone's
    score), and the cache makes each metric computed at most once per ranking.
    The metric table is passed in (``metric``: key → metric) rather than
    imported, so the dependency runs one way: metrics → ledger.
    """

    def __init__(
        self,
        players: Iterable[Player],
        matches: Iterable[Match],
        options: StandingsOptions,
        metric: Callable[[str], Computes],
        adjustments: Iterable[Adjustment] = (),
    ) -> None:
        self.options = options
        self._metric = metric
        self.players: dict[int, Player] = {p.id: p for p in players}
        self.games: dict[int, list[Game]] = {pid: [] for pid in self.players}
        self.pending: dict[int, list[int]] = {pid: [] for pid in self.players}
        self.last_round = 0
        self.played_round = 0
        """The last round with a result of a pairing (a bye is no result of a round: it counts
        as soon as its round is published, before anyone has played it)."""
        self.bye_round = 0
        """The last round with a counted bye: past :attr:`played_round`, opponent-strength
        tie-breaks leave such byes out (:func:`~.metrics.opponents.counted_games`)."""
        self._values: dict[str, dict[int, float]] = {}
        self._shared: dict[str, object] = {}
        self.adjustments: dict[int, list[Adjustment]] = {}
        main = main_score_key(options)
        for adj in adjustments:
            if adj.player in self.players:
                resolved = adj if adj.metric else Adjustment(
                    adj.player, adj.amount, adj.reason, main, adj.mark
                )
                self.adjustments.setdefault(adj.player, []).append(resolved)
        self._free_round_is_no_game = options.system == System.ROUND_ROBIN
        for match in matches:
            self._add(match)
        by_round = attrgetter("round")
        for games in self.games.values():
            games.sort(key=by_round)

    def _add(self, m: Match) -> None:
        """Record ``m`` for both sides; matches touching players outside the group are dropped."""
        a, b, kind, number = m.player_a, m.player_b, m.kind, m.round
        players = self.players
        if a not in players or (b is not None and b not in players):
            return
        if kind == _VOID:
            # A void match counts for nobody, but its round was played: the round is completed
            # for FIDE C.07's n as a pairing's result makes it (a disqualification voiding every
            # past result must not turn the rounds played back into rounds nobody has played).
            if b is not None and m.status == _FINISHED and number > self.played_round:
                self.played_round = number
            return
        if m.status != _FINISHED:
            self.pending[a].append(number)
            if b is not None:
                self.pending[b].append(number)
            return
        if b is None and m.bye_result is None and self._free_round_is_no_game:
            return  # a round robin's free round is no game (see the module's docstring)
        if number > self.last_round:
            self.last_round = number
        if b is not None and number > self.played_round:
            self.played_round = number
        if b is None:
            if number > self.bye_round:
                self.bye_round = number
            result = WIN if self.options.bye_is_win else LOSS
            if m.bye_result is not None:
                result = m.bye_result
            self.games[a].append(Game(number, None, m.score_a, m.score_b, result, 0))
            return
        if kind == _DOUBLE_FORFEIT:
            res_a = res_b = LOSS
        elif m.winner is None:
            res_a = res_b = DRAW
        else:
            res_a, res_b = (WIN, LOSS) if m.winner == a else (LOSS, WIN)
        off = kind in UNPLAYED
        self.games[a].append(Game(number, b, m.score_a, m.score_b, res_a, m.gammons_a or 0, off))
        self.games[b].append(Game(number, a, m.score_b, m.score_a, res_b, m.gammons_b or 0, off))

    @property
    def total_rounds(self) -> int:
        """Rounds of the event: as announced, else as many as have been played."""
        return max(self.options.total_rounds or 0, self.last_round)

    def adjustment(self, key: str, player: int) -> Score:
        """The sum of the rulings' adjustments to ``player``'s metric ``key`` (0 when none)."""
        own = self.adjustments.get(player)
        if not own:
            return 0
        return sum((a.amount for a in own if a.metric == key), 0)

    def shared(self, name: str, build: Callable[[], T]) -> T:
        """A derived table several metrics read (each game's opponent score for Buchholz,
        median Buchholz and Sonneborn-Berger), built once per ranking like the values."""
        found = self._shared.get(name)
        if found is None:
            found = self._shared[name] = build()
        return found  # type: ignore[return-value]

    def values(self, key: str) -> dict[int, float]:
        """Every player's value of metric ``key`` (computed on first use), :func:`exact`."""
        cached = self._values.get(key)
        if cached is None:
            cached = {pid: round(v + 0.0, EXACT_PLACES) for pid, v in self._metric(key).compute(self).items()}
            self._values[key] = cached
        return cached

    def basis_key(self) -> str:
        return self.options.score_basis or "wins"

    def contribution(self) -> Callable[[Game], float]:
        """What one game adds to the score basis (a match win, or the game points)."""
        if self.basis_key() == "points":
            return lambda g: float(g.score_for)
        return lambda g: g.result

    def basis(self) -> dict[int, float]:
        return self.values(self.basis_key())
