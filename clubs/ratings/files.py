"""The ``rate_matches`` file format: plain JSON data in, core types out, and back.

Input (issue 13)::

    {"start": {"NAME": {"rating": r, "experience": e}, …},          optional
     "matches": [{"a": "NAME", "b": "NAME", "length": n, "score_a": x, "score_b": y}, …]}

with ``"games": g`` instead of ``"length"`` for a fixed-games match; matches in
chronological order. Output: ``{"ratings": {"NAME": {"rating": r, "experience": e}}}``
at full precision. Problems are ``ratings.*`` and name the match.
"""

from __future__ import annotations

from typing import Any

from scoring.rules.errors import Problem, RuleViolation

from .fibs import NEW_EXPERIENCE, NEW_RATING, Standing
from .history import RatedMatch
from .problems import RATINGS

MATCH_FIELDS = ("a", "b", "score_a", "score_b")


def parse(data: Any) -> tuple[dict[str, Standing] | None, list[RatedMatch]]:
    """The starting table (None when absent) and the matches; raises with every problem found."""
    if not isinstance(data, dict):
        raise RuleViolation(RATINGS.problem("bad_file", reason="not an object"))
    start_data, match_data = data.get("start"), data.get("matches")
    if not isinstance(match_data, list):
        raise RuleViolation(RATINGS.problem("bad_file", reason="\"matches\" is not a list"))
    if start_data is not None and not isinstance(start_data, dict):
        raise RuleViolation(RATINGS.problem("bad_file", reason="\"start\" is not an object"))
    problems: list[Problem] = []
    start = None
    if start_data is not None:
        start = {}
        for name, row in start_data.items():
            row = row if isinstance(row, dict) else {"rating": row}
            start[str(name)] = Standing(
                row.get("rating", NEW_RATING), row.get("experience", NEW_EXPERIENCE)
            )
    matches = []
    for index, row in enumerate(match_data):
        if not isinstance(row, dict):
            problems.append(RATINGS.problem("not_a_match", index=index + 1))
            continue
        missing = [f for f in MATCH_FIELDS if f not in row]
        if missing:
            problems.extend(RATINGS.problem("missing_field", index=index + 1, field=f) for f in missing)
            continue
        a, b = str(row["a"]), str(row["b"])
        if ("length" in row) == ("games" in row):
            problems.append(RATINGS.problem("length_and_games", index=index + 1, a=a, b=b))
            continue
        games = "games" in row
        matches.append(RatedMatch(
            a, b, row["games"] if games else row["length"], row["score_a"], row["score_b"], games,
        ))  # fmt: skip
    if problems:
        raise RuleViolation(problems)
    return start, matches


def ratings_data(table: dict[Any, Standing]) -> dict[str, Any]:
    """The output object, full precision, players in name order."""
    return {
        "ratings": {
            str(name): {"rating": s.rating, "experience": s.experience}
            for name, s in sorted(table.items(), key=lambda item: str(item[0]))
        }
    }
