"""A match record for the simulator: a .mat written by the rules core's exporter for a given score.

Each game is a few random legal plays from the opening, then the side on roll resigns a
single game (1 point, cube never turned), so the file's final score is exactly the one asked
for and every play in it is legal: the record of the match's actual result.
"""

from __future__ import annotations

import random

from scoring.rules.board.legal import legal_plays
from scoring.rules.board.position import OFF, Position
from scoring.rules.records.matfile import MatAction, MatGame, MatMatch, export_mat
from scoring.rules.records.notation import BAR, Chain
from scoring.rules.records.notation import OFF as OFF_LABEL

SIDES = ("white", "black")


def _label(index: int) -> str:
    return BAR if index == 25 else OFF_LABEL if index == OFF else str(index)


def mat_for(final: tuple[int, int], *, length: int, players: tuple[str, str], seed: int) -> str:
    """A .mat of single games won in a random order that ends ``final`` (white's, black's points)."""
    rng = random.Random(seed)
    winners = ["white"] * final[0] + ["black"] * final[1]
    rng.shuffle(winners)
    if length and final[0] != final[1]:  # the match ends with the winner's last game
        last = "white" if final[0] > final[1] else "black"
        winners.remove(last)
        winners.append(last)
    match = MatMatch(length=length, players=players)
    score = [0, 0]
    for number, winner in enumerate(winners, start=1):
        game = MatGame(number, (score[0], score[1]))
        pos = Position.start("backgammon", rng.randint(0, 1))
        row, taken = 0, set()
        for _ply in range(rng.randint(2, 6)):
            me = SIDES[pos.turn]
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(legal_plays(pos, dice))
            chains = tuple(Chain((_label(s.src), _label(s.dst)), (False, bool(s.hit)), 1) for s in play.steps)
            if me in taken or (me == "white" and "black" in taken):  # GNU Backgammon's rows
                row, taken = row + 1, set()
            taken.add(me)
            game.actions.append(MatAction(row, me, "play", "", dice=dice, chains=chains))
            pos = play.position
        game.winner, game.points = winner, 1
        score[SIDES.index(winner)] += 1
        match.games.append(game)
    return export_mat(match)
