"""Running the GNU Backgammon program: where it is, how it runs, and records it converts.

Pure (no Django): the record pages use it to read the formats only gnubg reads, and
match analysis (:mod:`scoring.analysis.engine`) to run its analyses, so both find and
start gnubg the same way. gnubg is a separate program (GPL): it is run, never imported.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

#: Debian installs the program in /usr/games, which a service's PATH often lacks.
DEFAULT_DIRS: tuple[str, ...] = ("/usr/games",)


def find(binary: str = "gnubg", dirs: Iterable[str] = DEFAULT_DIRS) -> str | None:
    """The gnubg program to run, or None (then every match says "analysis unavailable")."""
    if os.sep in binary:
        return binary if os.access(binary, os.X_OK) else None
    search = os.pathsep.join([os.environ.get("PATH", ""), *dirs])
    return shutil.which(binary, path=search)


def one_core() -> None:
    """In the child: one CPU (spread over the allowed ones by pid), low priority, own group."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[os.getpid() % len(cpus)]})
    except (AttributeError, OSError):  # not Linux: the nice value still keeps it modest
        pass
    os.nice(10)


class ConversionError(Exception):
    """gnubg did not convert a record: ``reason`` says why (gnubg's own last words)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: The formats players bring that gnubg imports and the app has no reader for: the file's
#: extension → gnubg's ``import`` keyword. gnubg's own ``.sgf`` is also told by its content.
IMPORTS: dict[str, str] = {"sgf": "sgf", "sgg": "sgg", "tmg": "tmg", "gam": "gam"}
_SGF = re.compile(r"^\s*\(\s*;\s*FF\[\d\]")


def foreign_format(name: str, text: str) -> str | None:
    """gnubg's ``import`` keyword for a record the app cannot read itself, else None."""
    if _SGF.match(text) and "GM[6]" in text[:2000]:  # SGF game 6 is backgammon
        return "sgf"
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return IMPORTS.get(ext) if ext != "sgf" else None  # an .sgf of another game is not ours


def convert(text: str, fmt: str, *, program: str, timeout: float = 60) -> str:
    """A record in a format gnubg imports (``fmt``, a value of :data:`IMPORTS`), as gnubg's ``.mat``.

    gnubg reads it and writes it out again; the app then reads the ``.mat`` with its own
    reader and guards, so a converted file is judged exactly like an uploaded ``.mat``.
    Raises :class:`ConversionError` with gnubg's reason.
    """
    if fmt not in IMPORTS.values():
        raise ConversionError(f"unknown format {fmt}")
    with tempfile.TemporaryDirectory(prefix="zarik-gnubg-") as tmp:
        folder = Path(tmp)
        (folder / f"record.{fmt}").write_text(text, encoding="utf-8")
        # gnubg's own .sgf is "loaded"; the other formats are "imported".
        read = f"load match record.{fmt}" if fmt == "sgf" else f"import {fmt} record.{fmt}"
        commands = f"{read}\nexport match mat converted.mat\nquit\n"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "LANG": "C", "LC_ALL": "C"}
        try:
            run = subprocess.run(  # noqa: S603 - a fixed program and arguments, no shell
                [program, "-t", "-q", "-r"], input=commands.encode(), cwd=tmp, env=env,
                capture_output=True, timeout=timeout, start_new_session=True, preexec_fn=one_core,  # noqa: PLW1509
            )
        except OSError as exc:
            raise ConversionError(str(exc)) from exc
        except subprocess.TimeoutExpired:
            raise ConversionError(f"over {int(timeout)} s") from None
        out = folder / "converted.mat"
        if not out.exists() or "Game" not in (converted := out.read_text(encoding="utf-8", errors="replace")):
            reason = last_line(run.stdout.decode("utf-8", "replace")) or "no games read"
            raise ConversionError(reason)
    return converted


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("===")]
    return lines[-1][:200] if lines else ""
