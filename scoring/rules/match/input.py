"""Reading untrusted match input (a JSON file, an API body) into typed :class:`MatchSpec` data.

Only types and shapes are checked here, every field problem reported at once; whether
the values make sense under the rules is :func:`scoring.rules.match.check.validate_match`'s job.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.spec import SIDES, GameEntry, MatchSpec, Number, _is_int
from scoring.rules.problems.match import MATCH

_BOOL_KEYS = ("cube", "holland", "jacoby", "beaver", "raccoon", "dave", "organiser_override")
_SPEC_KEYS = {
    "length",
    "fixed_games",
    "scoring",
    "crawford",
    "autodoubles",
    "max_cube",
    "draw",
    "category",
    "round",
    "first_white",
    *_BOOL_KEYS,
}
_TOP_KEYS = _SPEC_KEYS | {"games", "final"}
_GAME_KEYS = {"winner", "kind", "cube", "dropped", "autodoubles"}


@dataclass(frozen=True, slots=True)
class MatchInput:
    spec: MatchSpec
    games: tuple[GameEntry, ...] | None
    final: tuple[Number, Number] | None


def _input_problem(where: str, expected: str, game: int | None = None, **details: Any) -> Problem:
    """``field: expected …, got …`` — ``expected`` is a key of the catalogue's input table.

    A game's field is named without the game (``cube``, not ``games[2].cube``): the place
    prefix already says "Game 2: ".
    """
    return MATCH.problem("bad_input", game=game, field=where, expected_input=expected, **details)


def parse_match_input(data: Any) -> MatchInput:
    """Turn a decoded JSON object into typed input, or raise with every field problem.

    Only types and shapes are checked here; whether the values make sense under
    the rules is :func:`validate_match`'s job, so the messages stay in one place.
    Unknown keys are refused so that a misspelt option is not silently ignored.
    """
    if not isinstance(data, Mapping):
        raise RuleViolation(_input_problem("input", "object"))
    bad: list[Problem] = []
    for key in sorted(set(data) - _TOP_KEYS):
        bad.append(_input_problem(str(key), "known_option", known=", ".join(sorted(_TOP_KEYS))))
    kwargs: dict[str, Any] = {}

    def want(key: str, ok: bool, expected: str) -> None:
        if key in data:
            if ok:
                kwargs[key] = data[key]
            else:
                bad.append(_input_problem(key, expected, got=repr(data[key])))

    def int_or_null(v: Any) -> bool:
        return v is None or _is_int(v)

    for key in ("length", "fixed_games", "max_cube", "round"):
        want(key, int_or_null(data.get(key)), "int_or_null")
    want("autodoubles", int_or_null(data.get("autodoubles")), "limit")
    want("scoring", isinstance(data.get("scoring"), str), "scoring")
    want("first_white", data.get("first_white") in SIDES, "side")
    for key in _BOOL_KEYS:
        want(key, isinstance(data.get(key), bool), "bool")
    want(
        "crawford",
        data.get("crawford") is None or isinstance(data.get("crawford"), bool),
        "bool_or_null",
    )
    want(
        "category",
        data.get("category") is None
        or isinstance(data.get("category"), (int, str))
        and not isinstance(data.get("category"), bool),
        "category",
    )
    if "draw" in data:
        draw = data["draw"]
        if draw is None:
            kwargs["draw"] = None
        elif isinstance(draw, (int, float)) and not isinstance(draw, bool):
            kwargs["draw"] = _as_number(draw)
        else:
            bad.append(_input_problem("draw", "draw", got=repr(draw)))

    games: list[GameEntry] | None = None
    if data.get("games") is not None:
        raw_games = data["games"]
        if not isinstance(raw_games, list):
            bad.append(_input_problem("games", "games"))
        else:
            games = []
            for i, raw in enumerate(raw_games, start=1):
                entry = _parse_game(i, raw, bad)
                if entry is not None:
                    games.append(entry)
    final = None
    if data.get("final") is not None:
        raw = data["final"]
        ok = (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)
        )
        if ok:
            final = (_as_number(raw[0]), _as_number(raw[1]))
        else:
            bad.append(_input_problem("final", "final", got=repr(raw)))
    if bad:
        raise RuleViolation(bad)
    return MatchInput(MatchSpec(**kwargs), tuple(games) if games is not None else None, final)


def _as_number(value: int | float) -> Number:
    if isinstance(value, int):
        return value
    number = Fraction(str(value))
    return int(number) if number.denominator == 1 else number


def _parse_game(number: int, raw: Any, bad: list[Problem]) -> GameEntry | None:
    if not isinstance(raw, Mapping):
        bad.append(_input_problem("game", "game_object", number))
        return None
    start = len(bad)
    for key in sorted(set(raw) - _GAME_KEYS):
        bad.append(
            _input_problem(str(key), "known_field", number, known=", ".join(sorted(_GAME_KEYS)))
        )
    if "kind" not in raw:
        bad.append(_input_problem("kind", "present", number))
    checks: Iterable[tuple[str, bool, str]] = (
        ("winner", raw.get("winner") is None or isinstance(raw.get("winner"), str), "winner"),
        ("kind", isinstance(raw.get("kind"), str), "text"),
        ("cube", "cube" not in raw or _is_int(raw["cube"]), "int"),
        ("dropped", "dropped" not in raw or isinstance(raw["dropped"], bool), "bool"),
        ("autodoubles", "autodoubles" not in raw or _is_int(raw["autodoubles"]), "int"),
    )
    for key, ok, expected in checks:
        if key in raw and not ok:
            bad.append(_input_problem(key, expected, number, got=repr(raw[key])))
    if len(bad) > start:
        return None
    return GameEntry(
        winner=raw.get("winner"),
        kind=raw["kind"],
        cube=raw.get("cube", 1),
        dropped=raw.get("dropped", False),
        autodoubles=raw.get("autodoubles", 0),
    )
