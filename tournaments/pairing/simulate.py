"""Seeded, rating-biased simulated Swiss tournaments.

Used by the benchmark, the property tests and the TRF round-trip test: a
realistic history (score groups thinning out, floaters, byes) is what exposes
pairing bugs, and a seed makes every run reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from tournaments.pairing.history import Entrant, TableResult, build_players
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.swiss_input import PairingInput, SwissOptions, SwissResult


@dataclass
class SimulatedTournament:
    entrants: list[Entrant]
    results: list[TableResult]
    options: SwissOptions
    rounds_paired: int = 0

    def next_input(self) -> PairingInput:
        players = build_players(self.entrants, self.results, score=self.options.score)
        return PairingInput(self.rounds_paired + 1, players, self.options)


def make_entrants(n: int, seed: int, sections: int = 1) -> list[Entrant]:
    """``n`` players with draw numbers 1…n per section and ratings 1200–2200."""
    rng = random.Random(seed)
    out = []
    counters = [0] * sections
    for i in range(n):
        s = i % sections
        counters[s] += 1
        section = "" if sections == 1 else f"S{s + 1}"
        out.append(Entrant(i + 1, counters[s], rng.randint(1200, 2200), section))
    return out


def play_round(t: SimulatedTournament, res: SwissResult, rng: random.Random) -> None:
    """Record results for a paired round: the stronger player wins more often (Elo curve)."""
    rating = {e.id: e.rating for e in t.entrants}
    rnd = res.round_number
    for p in res.pairings:
        expected = 1.0 / (1.0 + 10 ** ((rating[p.b] - rating[p.a]) / 400))
        a_wins = rng.random() < expected
        loser_games = float(rng.randint(0, 4))
        t.results.append(
            TableResult(
                rnd,
                p.a,
                p.b,
                1.0 if a_wins else 0.0,
                0.0 if a_wins else 1.0,
                5.0 if a_wins else loser_games,
                loser_games if a_wins else 5.0,
                white=p.white,
            )
        )
    for b in res.byes:
        t.results.append(TableResult(rnd, b.player, None, b.points, kind=b.kind))
    t.rounds_paired = rnd


def simulate(
    n: int,
    rounds: int,
    seed: int = 1,
    options: SwissOptions | None = None,
    on_round: Callable[[PairingInput, SwissResult], None] | None = None,
) -> SimulatedTournament:
    """Pair and play ``rounds`` rounds; ``on_round`` sees each input and result."""
    rng = random.Random(seed)
    t = SimulatedTournament(make_entrants(n, seed), [], options or SwissOptions())
    for _ in range(rounds):
        inp = t.next_input()
        res = pair_swiss(inp)
        if on_round is not None:
            on_round(inp, res)
        play_round(t, res, rng)
    return t
