"""How fast the match core checks results: ledgers, summaries, and the JSON path.

Run: .venv/bin/python bench/match_validation.py
Prints microseconds per call (best of 5 repeats) for typical and worst-case inputs.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules.match.check import validate_match, validate_match_data  # noqa: E402
from scoring.rules.match.spec import GameEntry, MatchSpec  # noqa: E402

G = GameEntry


def per_call(label: str, fn, number: int) -> None:
    best = min(timeit.repeat(fn, number=number, repeat=5)) / number
    print(f"{label:<58} {best * 1e6:10.1f} µs/call")


def main() -> None:
    five = MatchSpec(length=5)
    cube13 = MatchSpec(length=13, cube=True, autodoubles=1, beaver=True)
    ledger13 = [
        G("a", "single"),
        G("b", "single", 2),
        G("a", "gammon", 2),
        G("b", "single"),
        G("a", "single", 2, dropped=True),
        G("b", "gammon"),
        G("a", "single"),
        G("b", "single", 4),
        G("a", "single"),
        G("a", "gammon", 2),
    ]
    assert validate_match(cube13, ledger13).ok
    trictrac_fixed = MatchSpec(fixed_games=7, scoring="trictrac", cube=True)
    data = {
        "length": 13,
        "cube": True,
        "games": [{"winner": "a", "kind": "gammon", "cube": 2}] * 3
        + [{"winner": "a", "kind": "single"}],
    }

    per_call(
        "summary 5-point, no cube (book crosstable cell 7:4)",
        lambda: validate_match(five, final=(7, 4)),
        2000,
    )
    per_call(
        "summary 13-point, cube (impossible 77:12)",
        lambda: validate_match(cube13, final=(77, 12)),
        500,
    )
    per_call(
        "ledger 10 games, 13-point, cube (legal)", lambda: validate_match(cube13, ledger13), 500
    )
    per_call(
        "summary 7 fixed games, trictrac, cube (3000:1024)",
        lambda: validate_match(trictrac_fixed, final=(3000, 1024)),
        50,
    )
    per_call("JSON dict → parse → validate (4 games)", lambda: validate_match_data(data), 1000)


if __name__ == "__main__":
    main()
