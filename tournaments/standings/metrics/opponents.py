"""Opponent-strength metrics: Buchholz, median Buchholz, Sonneborn-Berger, progressive.

All of them add up the *score basis* (match wins in a Swiss, game points in a
round robin; see ``StandingsOptions.score_basis``). A bye has no opponent, so it
counts as the option ``bye_value`` says (see :class:`~..types.ByeValue`); a
forfeit (won, lost or double) is an unplayed game and counts the same way — the
FIDE virtual opponent by default (convention in :mod:`..ledger`). In a round robin a
forfeit counts against the real, scheduled opponent (FIDE C.07; :mod:`..ledger`), and the
free round is no game at all.
"""

from __future__ import annotations

from ..ledger import Game, Ledger
from ..types import ByeValue, System
from .base import Metric, register


def _mean_points_per_match(ledger: Ledger) -> float:
    """Average game points one side scores in a played match (the virtual opponent's pace)."""
    total = count = 0.0
    for games in ledger.games.values():
        for g in games:
            if g.met:
                total += g.score_for
                count += 1
    return total / count if count else 0.0


def opponent_scores(ledger: Ledger, pid: int) -> list[tuple[Game, float]]:
    """Each finished game of ``pid`` with the score basis of whoever (or whatever) they met.

    Built for everyone at once and kept on the ledger: Buchholz, median Buchholz and
    Sonneborn-Berger all read it."""
    return ledger.shared("opponent_scores", lambda: _every_opponent_score(ledger))[pid]


def _every_opponent_score(ledger: Ledger) -> dict[int, list[tuple[Game, float]]]:
    basis = ledger.basis()
    scheduled = ledger.options.system == System.ROUND_ROBIN
    out: dict[int, list[tuple[Game, float]]] = {}
    for pid, games in ledger.games.items():
        out[pid] = [
            (g, basis[g.opponent])
            if g.opponent is not None and (scheduled or not g.unplayed)
            else (g, _bye_score(ledger, pid, g))
            for g in games
        ]
    return out


def _bye_score(ledger: Ledger, pid: int, bye: Game) -> float:
    mode = ledger.options.bye_value
    if mode == ByeValue.ZERO:
        return 0.0
    if mode == ByeValue.OWN:
        return ledger.basis()[pid]
    # The virtual opponent: the player's score before the bye round, the bye round
    # lost (it gets what the player conceded), then half of every round played *since*,
    # up to the last round with results — not the rounds announced: after round 1 of 5 a
    # no-show's virtual opponent is not worth 2 more rounds nobody has played. FIDE
    # Handbook C.02 (2017), tie-break regulations: Svon = SPR + (1 − SfPR) + 0.5 × (n − R),
    # "n = number of completed rounds".
    contribution = ledger.contribution()
    before = sum(contribution(g) for g in ledger.games[pid] if g.round < bye.round)
    remaining = max(ledger.last_round - bye.round, 0)
    if ledger.basis_key() == "points":
        return before + float(bye.score_against) + remaining * _mean_points_per_match(ledger)
    return before + (1.0 - bye.result) + 0.5 * remaining


class OpponentSumMetric(Metric):
    """A metric that adds up one number per game from the opponent's score basis."""

    def per_opponent(self, game: Game, score: float) -> float:
        raise NotImplementedError

    def compute(self, ledger: Ledger) -> dict[int, float]:
        per_opponent = self.per_opponent
        return {
            pid: sum(per_opponent(g, s) for g, s in opponent_scores(ledger, pid))
            for pid in ledger.games
        }


@register
class Buchholz(OpponentSumMetric):
    """Sum of the opponents' scores: who you met, not only how you did."""

    key = "buchholz"
    name_ru, name_en = "Коэффициент Бухгольца", "Buchholz"
    abbr_ru, abbr_en = "Бух", "Buch"

    def per_opponent(self, game: Game, score: float) -> float:
        return score


@register
class MedianBuchholz(Metric):
    """Buchholz without the ``median_cut`` best and worst opponents (one lucky or unlucky pairing)."""

    key = "median_buchholz"
    name_ru, name_en = "Усечённый Бухгольц", "Median Buchholz"
    abbr_ru, abbr_en = "УсБух", "MBuch"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        cut = max(ledger.options.median_cut, 0)
        out: dict[int, float] = {}
        for pid in ledger.games:
            scores = sorted(s for _, s in opponent_scores(ledger, pid))
            kept = scores[cut : len(scores) - cut] if len(scores) > 2 * cut else []
            out[pid] = sum(kept)
        return out


@register
class SonnebornBerger(OpponentSumMetric):
    """Scores of the opponents beaten, plus half of those drawn with."""

    key = "sonneborn_berger"
    name_ru, name_en = "Коэффициент Зоннеборна-Бергера", "Sonneborn-Berger"
    abbr_ru, abbr_en = "ЗБ", "SB"

    def per_opponent(self, game: Game, score: float) -> float:
        return game.result * score


@register
class Progressive(Metric):
    """Sum of the running score after every round: early wins weigh more than late ones."""

    key = "progressive"
    name_ru, name_en = "Прогрессивный счёт", "Progressive score"
    abbr_ru, abbr_en = "Прогр", "Prog"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        contribution = ledger.contribution()
        rounds = ledger.last_round
        out: dict[int, float] = {}
        for pid, games in ledger.games.items():
            per_round = [0.0] * (rounds + 1)
            for g in games:
                per_round[g.round] += contribution(g)
            running = total = 0.0
            for r in range(1, rounds + 1):
                running += per_round[r]
                total += running
            out[pid] = total
        return out
