"""A small Swiss computed by hand, shared by the metric tests.

Five players, three rounds, 5-point matches, one bye a round (a bye scores a
match win and 5:0 in game points):

    R1: A–B 5:3 (A)    C–D 5:1 (C, two games won by gammon)   E bye
    R2: A–C 4:5 (C)    E–B 5:2 (E)                             D bye
    R3: C–E 5:3 (C)    A–D 5:2 (A, one gammon)                 B bye

Match wins: A 2, B 1, C 3, D 1, E 2.
"""

from __future__ import annotations

import pytest

from tournaments.standings import Match, Player


def _swiss() -> tuple[list[Player], list[Match]]:
    names = "ABCDE"
    players = [Player(i + 1, n, n, draw_number=i + 1) for i, n in enumerate(names)]
    a, b, c, d, e = (p.id for p in players)
    matches = [
        Match(1, a, b, 5, 3, winner=a),
        Match(1, c, d, 5, 1, winner=c, gammons_a=2, gammons_b=0),
        Match(1, e, None, 5, 0),
        Match(2, a, c, 4, 5, winner=c),
        Match(2, e, b, 5, 2, winner=e),
        Match(2, d, None, 5, 0),
        Match(3, c, e, 5, 3, winner=c),
        Match(3, a, d, 5, 2, winner=a, gammons_a=1),
        Match(3, b, None, 5, 0),
    ]
    return players, matches


@pytest.fixture
def small_swiss() -> tuple[list[Player], list[Match]]:
    return _swiss()
