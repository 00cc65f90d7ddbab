"""The FIBS rating formula, one match at a time (pure, full precision).

Source: the First Internet Backgammon Server's own help page, ``help formula``
("The formulas used to calculate rating changes"), as reproduced in the
rec.games.backgammon Backgammon FAQ, section "FIBS ratings"
(https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html)
and by Patti Beadles on rec.games.backgammon (https://www.bkgm.com/rgb/rgb.cgi?view+1093).
FIBS states it with the rating difference and the underdog's chance::

    D = abs(r1 - r2);  P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)
    winner: +4 * K * sqrt(n) * P,  loser: -4 * K * sqrt(n) * P
    (P = P_upset if the favourite wins, 1 - P_upset if the underdog wins)
    K = max(1, 5 - experience / 100);  experience = the lengths of all matches finished;
    every player starts at 1500 with experience 0.

We use the equivalent expected-score form of issue 13, which also covers the
book's draws (a level fixed-games match, Part 9)::

    E  = 1 / (10 ** ((R_opp - R_self) * sqrt(n) / 2000) + 1)   expected score of a player
    K  = max(1, 5 - experience / 100)                          the player's OWN experience
                                                               before the match
    dR = 4 * K * sqrt(n) * (S - E)                             S = 1 win, ½ draw, 0 loss

For a win ``S - E = 1 - E`` is the opponent's chance, i.e. FIBS's ``P``. Each
player's K is their own, so the two changes cancel only when K is equal. ``n`` is
the match length in points, or the number of games of a fixed-games match. Both
players' experience grows by ``n``. Nothing is rounded here: pages show two
decimals, the stored and exported values keep full precision. (Some FIBS clients'
help uses ``experience + n`` in K; the server's formula and the issue use the
experience *before* the match, and so do we.)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

NEW_RATING = 1500.0
NEW_EXPERIENCE = 0
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating and experience (match points or games played in rated matches)."""

    rating: float = NEW_RATING
    experience: float = NEW_EXPERIENCE


def win_probability(r_self: float, r_opp: float, n: float) -> float:
    """The expected score E of the player rated ``r_self`` against ``r_opp`` in a match of ``n``.

    Shown as "expected win %" on pairings pages (``100 * E``).
    """
    return 1.0 / (10.0 ** ((r_opp - r_self) * sqrt(n) / 2000.0) + 1.0)


def k_factor(experience: float) -> float:
    """The experience factor: 5 for a newcomer, falling to 1 at 400 points of experience."""
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(r_self: float, r_opp: float, experience: float, n: float, score: float) -> float:
    """dR of one player: ``4 * K * sqrt(n) * (S - E)`` with the player's own experience."""
    return 4.0 * k_factor(experience) * sqrt(n) * (score - win_probability(r_self, r_opp, n))


def rate(a: Standing, b: Standing, n: float, score_a: float) -> tuple[Standing, Standing]:
    """Both players after one match (``score_a`` is S of player a: 1, ½ or 0)."""
    ra, rb = a.rating, b.rating
    return (
        Standing(ra + rating_change(ra, rb, a.experience, n, score_a), a.experience + n),
        Standing(rb + rating_change(rb, ra, b.experience, n, 1.0 - score_a), b.experience + n),
    )
