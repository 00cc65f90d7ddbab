"""A scripted table: steps for a whole match from a seeded roll of the dice, made with the
rules core's own legal plays (so a test records what a recorder at the table would)."""

from __future__ import annotations

import random
from typing import Any

from scoring.rules.match.spec import MatchSpec
from scoring.rules.records import live as core


def match_steps(spec: MatchSpec, variant: str, seed: int, *, double_every: int = 0) -> list[dict[str, Any]]:
    """Every step of one match: dice from ``seed``, the first legal play; a double (taken,
    the second time passed) every ``double_every`` turns when the cube allows it."""
    rnd = random.Random(seed)
    state = core.start(spec, variant)
    steps: list[dict[str, Any]] = []
    turns = doubles = 0
    while state.phase != core.OVER:
        allowed = core.allowed_steps(state)
        if state.phase == core.OPENING:
            d1 = rnd.randint(1, 6)
            d2 = rnd.choice([d for d in range(1, 7) if d != d1])
            step = {"kind": "roll", "dice": [d1, d2], "side": "white" if d1 > d2 else "black"}
        elif state.phase == core.ROLL:
            turns += 1
            if double_every and "double" in allowed and turns % double_every == 0:
                step = {"kind": "double"}
            else:
                step = {"kind": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]}
        elif state.phase == core.ANSWER:
            doubles += 1
            step = {"kind": "take" if doubles % 2 else "pass"}
        else:
            step = {"kind": "play", "text": core.play_options(state)[0]["text"]}
        state = core.apply(state, step)
        steps.append(step)
    return steps
