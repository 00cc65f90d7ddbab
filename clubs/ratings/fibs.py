"""The FIBS rating formula (only the expected score here so far; the ratings core grows around it).

Source: the FIBS rating system (Schaefer / FIBS help "ratings"), as quoted in
issue 13: a player's expected score in a match of ``n`` points against an
opponent is ``1 / (10 ** ((R_opp - R_self) * sqrt(n) / 2000) + 1)``.
"""

from __future__ import annotations

from math import sqrt


def win_probability(r_a: float, r_b: float, n: int) -> float:
    """The expected score (the chance to win) of the player rated ``r_a`` against ``r_b`` at length ``n``."""
    return 1 / (10 ** ((r_b - r_a) * sqrt(n) / 2000) + 1)
