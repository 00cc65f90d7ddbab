"""Played inside GNU Backgammon (``gnubg -t -q -p gnubg_random_play.py``), never imported.

Both sides are "human" and every choice is drawn from a seeded RNG: double or roll,
take, pass or beaver, resign (normal, gammon, backgammon) and accept or reject; the
chequer play is gnubg's best (its dice come from ``set seed``). The match or money
session is exported as a ``.mat`` by gnubg itself, and gnubg's own score of each game is
written beside it as JSON, for ``test_gnubg_random_exports`` to read both back.
The settings come from the JSON file named by ``ZARIK_GNUBG_PLAY``.
"""

import json
import os
import random

import gnubg  # the module gnubg's embedded Python provides

cfg = json.load(open(os.environ["ZARIK_GNUBG_PLAY"], encoding="utf-8"))
rng = random.Random(cfg["seed"])
money = cfg["length"] == 0
setup = [
    "set evaluation chequerplay evaluation plies 0",
    "set evaluation cubedecision evaluation plies 0",
    "set player 0 human",
    "set player 1 human",
    "set display off",
    "set automatic game off",
    "set automatic roll off",
    f"set seed {cfg['seed']}",
    f"set crawford {'on' if cfg.get('crawford', True) else 'off'}",
]
if money:
    setup += [
        f"set beavers {cfg.get('beavers', 0)}",
        f"set automatic doubles {cfg.get('autodoubles', 0)}",
        f"set jacoby {'on' if cfg.get('jacoby') else 'off'}",
        "new session",
    ]
else:
    setup.append(f"new match {cfg['length']}")
for command in setup:
    gnubg.command(command)


def games_played() -> int:
    return len(gnubg.match(analysis=0)["games"])


steps = 0
while steps < 20000:
    steps += 1
    state = gnubg.posinfo()
    if state["gamestate"] != 1:  # the game is over
        if money and games_played() >= cfg.get("games", 3):
            break
        before = games_played()
        gnubg.command("new game")
        if games_played() == before:  # a won match starts no new game
            break
        continue
    if state["doubled"]:
        answers = ["take", "drop"] + (["beaver"] if money and cfg.get("beavers") else [])
        gnubg.command(rng.choice(answers))
        continue
    if state["resigned"]:
        gnubg.command(rng.choice(["accept", "reject"]))
        continue
    if state["dice"][0] == 0:  # not rolled yet: resign, double or roll
        draw = rng.random()
        if draw < cfg.get("p_resign", 0.01):
            gnubg.command("resign " + rng.choice(["normal", "gammon", "backgammon"]))
            if gnubg.posinfo()["resigned"]:
                continue
        if draw < cfg.get("p_double", 0.1):
            gnubg.command("double")
            if gnubg.posinfo()["doubled"]:
                continue
        gnubg.command("roll")
        continue
    best = gnubg.findbestmove()
    gnubg.command("move " + gnubg.movetupletostring(best, gnubg.board()) if best else "move")

games = [g["info"] for g in gnubg.match(analysis=0)["games"]]
with open(cfg["out"] + ".json", "w", encoding="utf-8") as out:
    json.dump({"games": games, "steps": steps}, out, default=str)
gnubg.command(f"export match mat {cfg['out']}")
