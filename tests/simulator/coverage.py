"""What the whole-event simulator played: one record per event, one table for a run.

A green simulator proves little if it never reached the states that matter; this module counts
what it did reach. Each event the machine plays leaves one :class:`Played` record — its system
and options, the actions (rules) hypothesis chose, every service call's outcome (done, refused
with its problem code, forbidden), the rounds closed, whether the event finished, its results
by kind, its sanctions by kind and its comparisons with the referee model. The suite
(``test_whole_event.py``) keeps the records in memory and prints :func:`table` at its end;
``make soak`` appends them to a tally file, one JSON line an event (the soak is stopped by a
timeout, so nothing is left to write at its end), and runs this module on the file:

    python -m tests.simulator.coverage soak-tally.txt

which prints the table and exits 1 when a system or an action was never reached (by name).
The catalogue of systems and actions is read from ``event_machine.py``'s source, so this
runs without Django.
"""

from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

MACHINE = Path(__file__).with_name("event_machine.py")
#: Every record this process made (seam tests that drive the machine by hand included), and
#: those of the whole-event tests alone (what the suite's table shows; a soak reads its tally file).
SESSION: list[Played] = []
SUITE: list[Played] = []


@dataclass
class Played:
    """One event as the simulator played it."""

    system: str
    options: list[str] = field(default_factory=list)
    steps: int = 0  # actions hypothesis chose (rules run)
    actions: Counter[str] = field(default_factory=Counter)  # rule name -> times run
    outcomes: Counter[str] = field(default_factory=Counter)  # "service done" / "service refused <code>" / …
    rounds_closed: int = 0
    rounds: int = 0
    finished: bool = False
    results: Counter[str] = field(default_factory=Counter)  # confirmed matches by result kind
    sanctions: Counter[str] = field(default_factory=Counter)
    comparisons: int = 0
    failure: str = ""  # the first error the run raised (an action's or an invariant's), if any

    def line(self) -> str:
        """One JSON line (``dataclasses.asdict`` would rebuild each Counter from its pairs)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_line(cls, line: str) -> Played:
        data = json.loads(line)
        for name in ("actions", "outcomes", "results", "sanctions"):
            data[name] = Counter(data.get(name) or {})
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


def read(path: str | Path) -> list[Played]:
    """The records of a tally file (a line cut short by the soak's timeout is skipped)."""
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            records.append(Played.from_line(line))
        except (ValueError, TypeError):
            continue
    return records


# ------------------------------------------------------------------------------------ the catalogue


def catalogue(source: Path = MACHINE) -> tuple[list[str], list[str]]:
    """(systems, actions) the machine defines: the keys of ``SYSTEMS`` and every method
    decorated ``@action(...)``, read from its source."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    systems: list[str] = []
    actions: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "SYSTEMS" for t in node.targets):
            systems = sorted(ast.literal_eval(node.value))
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                call = deco.func if isinstance(deco, ast.Call) else deco
                if getattr(call, "id", None) == "action":
                    actions.append(node.name)
    return systems, sorted(actions)


def never_reached(records: Iterable[Played], source: Path = MACHINE, systems: list[str] | None = None) -> list[str]:
    """``system <name>`` and ``action <name>`` for each one no record reached (``systems``: the
    ones this run was to play, all by default)."""
    records = list(records)
    every, actions = catalogue(source)
    systems = every if systems is None else systems
    played = {r.system for r in records}
    run = Counter()
    for r in records:
        run.update(r.actions)
    return [f"system {s}" for s in systems if s not in played] + [f"action {a}" for a in actions if not run[a]]


# ------------------------------------------------------------------------------------ the table


def _share(part: int, whole: int) -> str:
    return f"{part} ({100 * part // whole}%)" if whole else str(part)


def table(records: Iterable[Played], source: Path = MACHINE, systems: list[str] | None = None) -> str:
    """The run's coverage, as text: per system, options, actions, outcomes and refusals by
    code, results, sanctions, comparisons, and what was never reached (``systems``: the ones
    this run was to play, all by default)."""
    records = list(records)
    out: list[str] = []
    steps = sum(r.steps for r in records)
    finished = sum(r.finished for r in records)
    out.append(f"== simulator coverage: {len(records)} events, {steps} actions, "
               f"finished {_share(finished, len(records))}")  # fmt: skip
    out.append(f"{'system':<14}{'events':>8}{'actions':>9}{'per ev.':>8}{'finished':>10}{'rounds':>8}"
               f"{'closed':>8}{'results':>9}")  # fmt: skip
    for system in sorted({r.system for r in records} | set(catalogue(source)[0] if systems is None else systems)):
        mine = [r for r in records if r.system == system]
        n = len(mine)
        acts = sum(r.steps for r in mine)
        out.append(
            f"{system:<14}{_share(n, len(records)):>8}{acts:>9}{(acts / n if n else 0):>8.1f}"
            f"{sum(r.finished for r in mine):>10}{sum(r.rounds for r in mine):>8}"
            f"{sum(r.rounds_closed for r in mine):>8}{sum(sum(r.results.values()) for r in mine):>9}"
        )
    totals: dict[str, Counter[str]] = {"options": Counter(), "results": Counter(), "sanctions": Counter(),
                                       "actions": Counter(), "outcomes": Counter()}  # fmt: skip
    for r in records:
        totals["options"].update(r.options)
        for name in ("results", "sanctions", "actions", "outcomes"):
            totals[name].update(getattr(r, name))
    out.append(f"rounds closed {sum(r.rounds_closed for r in records)}, "
               f"comparisons with the referee model {sum(r.comparisons for r in records)}")  # fmt: skip
    for name in ("results", "sanctions", "options"):
        out.append(f"{name}: " + (", ".join(f"{k} {v}" for k, v in sorted(totals[name].items())) or "none"))
    out.append("actions (times run): " + ", ".join(f"{k} {v}" for k, v in sorted(totals["actions"].items())))
    out.extend(_outcomes(totals["outcomes"]))
    missing = never_reached(records, source, systems)
    out.append("never reached: " + (", ".join(missing) if missing else "nothing"))
    failed = [r.failure for r in records if r.failure]
    if failed:
        out.append(f"runs that failed: {len(failed)} (the first: {failed[0]})")
    return "\n".join(out)


def _outcomes(outcomes: Counter[str]) -> list[str]:
    """One line a service: what it answered (done, refused, forbidden, the rules' own words),
    then each refusal kind by its problem code."""
    by_service: dict[str, dict[str, int]] = {}
    for key, count in outcomes.items():
        service, _, rest = key.partition(" ")
        by_service.setdefault(service, {})[rest] = count
    done = sum(kinds.get("done", 0) for kinds in by_service.values())
    refused = sum(kinds.get("refused", 0) for kinds in by_service.values())
    share = f" ({100 * refused // (done + refused)}%)" if done + refused else ""
    lines = [f"outcomes: done {done}, refused {refused}{share}"]
    for service, kinds in sorted(by_service.items()):
        said = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()) if not k.startswith("refused "))
        codes = ", ".join(f"{k.removeprefix('refused ')} {v}" for k, v in sorted(kinds.items())
                          if k.startswith("refused "))  # fmt: skip
        lines.append(f"  {service}: {said}" + (f" ({codes})" if codes else ""))
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.simulator.coverage TALLY_FILE", file=sys.stderr)
        return 2
    records = read(argv[0])
    print(table(records))
    missing = never_reached(records)
    if missing:
        print(f"FAILED: never reached: {', '.join(missing)}", file=sys.stderr)
    failed = [r.failure for r in records if r.failure]
    if failed:
        print(f"FAILED: {len(failed)} runs failed, the first: {failed[0]}", file=sys.stderr)
    return 1 if missing or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
