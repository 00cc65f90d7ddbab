"""GNU Backgammon as a separate program: a match file in, its analysis as JSON out.

Zarik never links or imports GNU Backgammon (GPL): it writes the record to a temporary
folder, starts ``gnubg -t -q -p script.py`` as another process and reads back the files the
script leaves there (JSON of ``gnubg.match(analysis=1, statistics=1)`` and the text of
``show statistics match``). That is communication between two programs at arm's length,
so the licences stay apart (the manual: player, "GNU Backgammon stays a separate program").

One analysis uses one core: the child is pinned to a single CPU and niced, has a time limit
and is killed with its whole process group when the limit passes. Nothing here touches the
database; :mod:`scoring.analysis.services` keeps the state.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.records.gnubg_program import last_line, one_core

#: The script gnubg's embedded Python runs. It only uses gnubg's documented commands.
SCRIPT = r'''
import json, sys
import gnubg

with open("job.json") as f:
    job = json.load(f)
out = {"ok": False}
try:
    for what in ("chequerplay", "cubedecision"):
        gnubg.command("set analysis %s evaluation plies %d" % (what, job["plies"]))
        gnubg.command("set analysis %s evaluation cubeful on" % what)
    gnubg.command("set analysis luckanalysis plies 0")
    gnubg.command("import mat record.mat")
    try:
        m = gnubg.match(analysis=0, statistics=0)
    except Exception as exc:
        m = None
    if not m or not m.get("games"):
        out["error"] = "import"
    else:
        gnubg.command("analyse match")
        m = gnubg.match(analysis=1, statistics=1, verbose=0)
        # In match play gnubg reports cube decisions as match winning chances; its statistics
        # count errors in normalised equity (EMG). Convert with gnubg's own mwc2eq at each
        # decision's cube and score, so each cube error is the one gnubg's totals add up.
        length = (m.get("match-info") or {}).get("match-length") or 0
        for game in m.get("games") or []:
            info = game.get("info") or {}
            score = (info.get("score-X", 0), info.get("score-O", 0))
            cube, owner = 1, -1
            for act in game.get("game") or []:
                an = act.get("analysis") or {}
                who = 0 if act.get("player") == "X" else 1
                if length and "nd-cubeful-eq" in an and "dt-cubeful-eq" in an:
                    ci = gnubg.cubeinfo(cube, owner, who, length, score, 0)
                    act["cube-eq"] = {"nd": gnubg.mwc2eq(an["nd-cubeful-eq"], ci),
                                      "dt": gnubg.mwc2eq(an["dt-cubeful-eq"], ci)}
                elif "nd-cubeful-eq" in an and "dt-cubeful-eq" in an:
                    act["cube-eq"] = {"nd": an["nd-cubeful-eq"], "dt": an["dt-cubeful-eq"]}
                if act.get("action") == "take":
                    cube, owner = cube * 2, who
        def clean(o):
            if isinstance(o, dict):
                return {str(k): clean(v) for k, v in o.items()}
            if isinstance(o, (list, tuple)):
                return [clean(v) for v in o]
            if isinstance(o, (int, float, str, bool)) or o is None:
                return o
            return str(o)
        out = {"ok": True, "match": clean(m)}
        sys.stdout.write("\n=== zarik: statistics\n")
        sys.stdout.flush()
        gnubg.command("show statistics match")
        sys.stdout.flush()
except Exception as exc:
    out = {"ok": False, "error": "script", "reason": repr(exc)[:300]}
with open("result.json.part", "w") as f:
    json.dump(out, f)
import os
os.replace("result.json.part", "result.json")
'''


class EngineError(Exception):
    """The engine did not give an analysis: ``code`` is an ``analysis.*`` problem name."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code, details)
        self.code = code
        self.details = details


@dataclass(frozen=True, slots=True)
class EngineOutput:
    """What gnubg left: its match dump and its own statistics text (to check our PR against)."""

    match: dict[str, Any]
    statistics_text: str
    seconds: float


def analyse(
    mat_text: str,
    *,
    plies: int,
    timeout: float,
    program: str,
    on_start: Callable[[int], None] | None = None,
) -> EngineOutput:
    """Run gnubg on one ``.mat`` text; raise :class:`EngineError` with the reason if it fails.

    ``on_start`` receives the child's pid (the service stores it, so an operator — or the
    fault test — can see which process works on which match).
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="zarik-gnubg-") as tmp:
        folder = Path(tmp)
        (folder / "record.mat").write_text(mat_text, encoding="utf-8")
        (folder / "job.json").write_text(json.dumps({"plies": int(plies)}), encoding="utf-8")
        (folder / "script.py").write_text(SCRIPT, encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "LANG": "C", "LC_ALL": "C"}
        try:
            child = subprocess.Popen(  # noqa: S603 - a fixed program and arguments, no shell
                [program, "-t", "-q", "-r", "-p", "script.py"],
                cwd=tmp, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=one_core,  # noqa: PLW1509
            )
        except OSError as exc:
            raise EngineError("unavailable", reason=str(exc)) from exc
        if on_start is not None:
            on_start(child.pid)
        try:
            stdout, _ = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(child)
            raise EngineError("timeout", seconds=int(timeout)) from None
        text = stdout.decode("utf-8", "replace")
        result = folder / "result.json"
        if child.returncode != 0 or not result.exists():
            if child.returncode and child.returncode < 0:
                reason = f"signal {-child.returncode}"
            else:
                reason = f"exit code {child.returncode}" if child.returncode else "no result written"
            raise EngineError("crashed", reason=reason)
        data = json.loads(result.read_text(encoding="utf-8"))
    if not data.get("ok"):
        if data.get("error") == "import":
            raise EngineError("import_failed", reason=last_line(text) or "no games read")
        raise EngineError("crashed", reason=data.get("reason") or "script error")
    statistics = text.split("=== zarik: statistics", 1)[1] if "=== zarik: statistics" in text else ""
    return EngineOutput(match=data["match"], statistics_text=statistics, seconds=time.monotonic() - started)


def _kill(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.communicate()
