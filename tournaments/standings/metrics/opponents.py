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
    """Average game points one side scores in a played match (the virtual opponent's pace);
    kept on the ledger: every bye of a points-based table asks for it."""

    def mean() -> float:
        total = count = 0.0
        for games in ledger.games.values():
            for g in games:
                if g.met:
                    total += g.score_for
                    count += 1
        return total / count if count else 0.0

    return ledger.shared("mean_points_per_match", mean)


def opponent_scores(ledger: Ledger, pid: int) -> list[float]:
    """The score basis of whoever (or whatever) ``pid`` met in each game that counts
    (:func:`counted_games`), in their order.

    Built for everyone at once and kept on the ledger: Buchholz, median Buchholz and
    Sonneborn-Berger all read it, and plain lists let them add up at C speed (a
    10,000-player Swiss has 50,000 games, issue 32)."""
    return ledger.shared("opponent_scores", lambda: _every_opponent_score(ledger))[pid]


def counted_games(ledger: Ledger, pid: int) -> list[Game]:
    """``pid``'s games that opponent-strength tie-breaks count: all but a bye of a round
    nobody has played yet (issue 43: round 2 published with a bye and no result moved
    everyone's Buchholz by half a point). FIDE C.07 (tie-break regulations, virtual
    opponent): only rounds that have been played are counted."""
    games = ledger.games[pid]
    last = ledger.played_round
    if ledger.bye_round <= last:
        return games
    return [g for g in games if g.round <= last or not g.is_bye]


def _played_basis(ledger: Ledger) -> dict[int, float]:
    """Everyone's score basis without the byes of rounds nobody has played yet: an opponent's
    bye of a round just published does not yet make him a stronger opponent."""
    basis = ledger.basis()
    last = ledger.played_round
    if ledger.bye_round <= last:
        return basis
    contribution = ledger.contribution()
    early = {
        pid: sum(contribution(g) for g in games if g.is_bye and g.round > last)
        for pid, games in ledger.games.items()
    }
    return {pid: value - early.get(pid, 0.0) for pid, value in basis.items()}


def _every_opponent_score(ledger: Ledger) -> dict[int, list[float]]:
    basis = _played_basis(ledger)
    scheduled = ledger.options.system == System.ROUND_ROBIN
    return {
        pid: [
            basis[g.opponent]
            if g.opponent is not None and (scheduled or not g.unplayed)
            else _bye_score(ledger, pid, g)
            for g in counted_games(ledger, pid)
        ]
        for pid in ledger.games
    }


def _bye_score(ledger: Ledger, pid: int, bye: Game) -> float:
    mode = ledger.options.bye_value
    if mode == ByeValue.ZERO:
        return 0.0
    if mode == ByeValue.OWN:
        return ledger.basis()[pid]
    # The virtual opponent: the player's score before the bye round, the bye round
    # lost (it gets what the player conceded), then half of every round played *since*,
    # up to the last round with results of a pairing — not the rounds announced, nor a
    # round published with only its byes counted: after round 1 of 5 a no-show's virtual
    # opponent is not worth 2 more rounds nobody has played. FIDE Handbook C.02 (2017),
    # tie-break regulations: Svon = SPR + (1 − SfPR) + 0.5 × (n − R), "n = number of
    # completed rounds".
    contribution = ledger.contribution()
    before = sum(contribution(g) for g in ledger.games[pid] if g.round < bye.round)
    remaining = max(ledger.played_round - bye.round, 0)
    if ledger.basis_key() == "points":
        return before + float(bye.score_against) + remaining * _mean_points_per_match(ledger)
    return before + (1.0 - bye.result) + 0.5 * remaining


@register
class Buchholz(Metric):
    """Sum of the opponents' scores: who you met, not only how you did."""

    key = "buchholz"
    name_ru, name_en = "Коэффициент Бухгольца", "Buchholz"
    abbr_ru, abbr_en = "Бух", "Buch"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {pid: sum(opponent_scores(ledger, pid)) for pid in ledger.games}


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
            scores = sorted(opponent_scores(ledger, pid))
            out[pid] = sum(scores[cut : len(scores) - cut]) if len(scores) > 2 * cut else 0
        return out


@register
class SonnebornBerger(Metric):
    """Scores of the opponents beaten, plus half of those drawn with."""

    key = "sonneborn_berger"
    name_ru, name_en = "Коэффициент Зоннеборна-Бергера", "Sonneborn-Berger"
    abbr_ru, abbr_en = "ЗБ", "SB"

    def compute(self, ledger: Ledger) -> dict[int, float]:
        return {
            pid: sum(g.result * s for g, s in zip(counted_games(ledger, pid), opponent_scores(ledger, pid), strict=True))
            for pid in ledger.games
        }


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
