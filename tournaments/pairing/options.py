"""Typed pairing options: one dataclass a system, read from and written to the tournament's JSON.

Every competition system has one row in :data:`SYSTEM_OPTIONS` — its options
dataclass and where those options sit in ``Tournament.pairing_options`` (the
knockout keeps its own under ``"knockout"``, the others at the top level).
:func:`parse_options` turns stored JSON into the dataclass, refusing unknown
keys and values of the wrong kind with ``pairing.options.*`` problems, then
asks the dataclass itself (``problems()``) for the rules between values;
:func:`dump_options` writes the dataclass back, leaving out what equals the
defaults so the stored JSON stays short. :func:`option_specs` describes each
field (kind, choices, minimum) for forms, which generate one field per option.

Pure Python: the model's ``clean()``, the admin form, the organiser's wizard
and the round manager all validate through here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from tournaments.pairing.knockout import SEED_BY as KNOCKOUT_SEED_BY
from tournaments.pairing.knockout import KnockoutOptions
from tournaments.pairing.problems import OPTIONS
from tournaments.pairing.swiss_input import (
    FIRST_ROUND_RULES,
    SCORES,
    SEED_BY,
    SwissOptions,
)


@dataclass(frozen=True, slots=True)
class RoundRobinOptions:
    """A round robin's choices: how many cycles, and FIDE's swap of the seam rounds."""

    cycles: int = 1
    swap_last_two_rounds: bool = False

    def problems(self) -> list[Problem]:
        if self.cycles < 1:
            return [
                OPTIONS.problem(
                    "invalid", system="round_robin", option="cycles", value=self.cycles,
                    expected="integer", minimum=1,
                )
            ]
        return []


@dataclass(frozen=True, slots=True)
class ScheveningenOptions:
    """The Scheveningen system has no options: the team line-ups decide everything."""

    def problems(self) -> list[Problem]:
        return []


@dataclass(frozen=True, slots=True)
class SystemOptions:
    """One row of the options table: a system's options type and where its JSON sits."""

    system: str
    type: type
    json_key: str | None = None  # None: the options are the top level of pairing_options
    choices: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    minimum: Mapping[str, int] = dataclasses.field(default_factory=dict)


#: The systems' options; a new pairing system adds its row here (and one in the manager).
SYSTEM_OPTIONS: dict[str, SystemOptions] = {
    row.system: row
    for row in (
        SystemOptions(
            "swiss",
            SwissOptions,
            choices={"score": SCORES, "first_round": FIRST_ROUND_RULES, "seed_by": SEED_BY},
            minimum={"repair_limit": 2, "club_apart_rounds": 0},
        ),
        SystemOptions("round_robin", RoundRobinOptions, minimum={"cycles": 1}),
        SystemOptions(
            "knockout",
            KnockoutOptions,
            json_key="knockout",
            choices={"seed_by": KNOCKOUT_SEED_BY},
            minimum={"final_length": 1, "side_length": 1},
        ),
        SystemOptions("scheveningen", ScheveningenOptions),
    )
}

#: Field annotation → the kind of value it takes (what a form shows, what JSON must hold).
_KINDS = {
    "bool": "boolean",
    "int": "integer",
    "float": "number",
    "str": "text",
    "tuple[int, ...]": "lengths",
    "int | None": "optional_integer",
    "int | str": "text_or_integer",
}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option as a form sees it: name, kind, default, allowed values, minimum."""

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None


def option_specs(system: str) -> list[OptionSpec]:
    """Every option of ``system``, in the dataclass's order."""
    row = SYSTEM_OPTIONS[system]
    out = []
    for f in dataclasses.fields(row.type):
        kind = _KINDS[str(f.type)]
        choices = tuple(row.choices.get(f.name, ()))
        if choices:
            kind = "choice"
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        out.append(OptionSpec(f.name, kind, default, choices, row.minimum.get(f.name)))
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _coerce(spec: OptionSpec, value: Any) -> tuple[bool, Any]:
    """``(ok, value)``: the value in the dataclass's type, or not ok when of the wrong kind."""
    kind = spec.kind
    if kind == "boolean":
        return isinstance(value, bool), value
    if kind == "integer":
        return _is_int(value), value
    if kind == "optional_integer":
        return value is None or _is_int(value), value
    if kind == "number":
        ok = (_is_int(value) or isinstance(value, float)) and not isinstance(value, bool)
        return ok, float(value) if ok else value
    if kind == "lengths":
        ok = isinstance(value, list | tuple) and all(_is_int(v) for v in value)
        return ok, tuple(value) if ok else value
    if kind == "text_or_integer":
        return isinstance(value, str) or _is_int(value), value
    return isinstance(value, str), value


_EXPECTED = {
    "boolean": "boolean",
    "integer": "integer",
    "optional_integer": "integer",
    "number": "number",
    "lengths": "lengths",
    "choice": "choice",
    "text": "text",
    "text_or_integer": "text",
}


def options_problems(system: str, stored: Any, defaults: Mapping[str, Any] | None = None) -> list[Problem]:
    """Everything wrong with a tournament's stored pairing options for ``system`` (empty: fine)."""
    try:
        parse_options(system, stored, defaults)
    except RuleViolation as exc:
        return exc.problems
    return []


def parse_options(system: str, stored: Any, defaults: Mapping[str, Any] | None = None) -> Any:
    """The typed options of ``system`` from ``Tournament.pairing_options``; RuleViolation if bad.

    ``defaults`` are the tournament's own defaults (e.g. alternating colours in
    long nardy played to a number of games), used where the JSON says nothing.
    """
    system = str(system.value if hasattr(system, "value") else system)
    row = SYSTEM_OPTIONS[system]
    if stored is None:
        stored = {}
    if not isinstance(stored, Mapping):
        raise RuleViolation(OPTIONS.problem("not_a_table", value=stored, expected="table"))
    raw: Any = stored
    specs = {s.name: s for s in option_specs(system)}
    known = sorted(specs) if row.json_key is None else [row.json_key]
    problems = [
        OPTIONS.problem("unknown", system=system, option=key, allowed=known)
        for key in stored
        if key not in known
    ]
    if row.json_key is not None:
        raw = stored.get(row.json_key) or {}
        if not isinstance(raw, Mapping):
            problems.append(OPTIONS.problem("not_a_table", value=raw, expected="table"))
            raise RuleViolation(problems)
        problems += [
            OPTIONS.problem("unknown", system=system, option=key, allowed=sorted(specs))
            for key in raw
            if key not in specs
        ]
    values: dict[str, Any] = {}
    for name, value in {**(defaults or {}), **raw}.items():
        spec = specs.get(name)
        if spec is None:
            continue
        ok, value = _coerce(spec, value)
        if not ok:
            problems.append(
                OPTIONS.problem(
                    "invalid", system=system, option=name, value=value,
                    expected=_EXPECTED[spec.kind],
                    allowed=list(spec.choices), minimum=spec.minimum,
                )
            )
        elif spec.choices and value not in spec.choices:
            problems.append(
                OPTIONS.problem(
                    "invalid", system=system, option=name, value=value, expected="choice",
                    allowed=list(spec.choices),
                )
            )
        else:
            values[name] = value
    if problems:
        raise RuleViolation(problems)
    options = row.type(**values)
    semantic = options.problems()
    if semantic:
        raise RuleViolation(semantic)
    return options


def dump_options(
    system: str, options: Any, defaults: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``Tournament.pairing_options`` for ``options``: only what differs from the defaults."""
    row = SYSTEM_OPTIONS[system]
    base = {s.name: s.default for s in option_specs(system)} | dict(defaults or {})
    out: dict[str, Any] = {}
    for f in dataclasses.fields(row.type):
        value = getattr(options, f.name)
        if isinstance(value, tuple):
            value = list(value)
        default = base.get(f.name)
        if isinstance(default, tuple):
            default = list(default)
        if value != default:
            out[f.name] = value
    return {row.json_key: out} if row.json_key is not None and out else out
