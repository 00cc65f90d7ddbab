"""One Excel workbook per tournament: Standings, Crosstable, Pairings, Players (and a cup's
Side brackets).

Always written in openpyxl's write-only mode: rows stream to the file, so a
1,000-player Swiss needs little memory and the same code serves a club evening
and a big open. The workbook is built from the standings core's plain types;
nothing here touches Django, so the Celery task and the management command
only have to load data and call :func:`write_workbook`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import BinaryIO

from openpyxl import Workbook

from tournaments.standings import Match, Player

from . import (
    brackets_sheet,
    crosstable_sheet,
    pairings_sheet,
    players_sheet,
    standings_sheet,
    team_match_sheet,
)
from .context import prepare
from .meta import ExportOptions, TournamentInfo
from .progress import Progress, ProgressCallback

#: A cup's side brackets and a Scheveningen event's team match come last, so the four sheets
#: every event has keep their places (the workbook opens on the team match: the main result).
SHEETS = (standings_sheet, crosstable_sheet, pairings_sheet, players_sheet, brackets_sheet, team_match_sheet)


def write_workbook(
    target: str | os.PathLike[str] | BinaryIO,
    info: TournamentInfo,
    players: Sequence[Player],
    matches: Sequence[Match],
    options: ExportOptions | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> None:
    """Write the workbook to a path or a binary file-like object.

    ``progress(done, total)`` is called now and then while rows are written and
    once at the end with ``done == total``. Raises ``RuleViolation`` (from the
    standings core) if the chosen tie-breaks are not valid.
    """
    options = options or ExportOptions()
    data = prepare(info, players, matches, options)
    tracker = Progress(progress, sum(sheet.count(data) for sheet in SHEETS))
    wb = Workbook(write_only=True)
    for sheet in SHEETS:
        sheet.write(wb, data, tracker)
    if options.team_matches:
        _open_on(wb, wb.sheetnames[-1])
    wb.save(target)
    tracker.finish()


def _open_on(wb: Workbook, name: str) -> None:
    """Open the workbook on sheet ``name``: the active tab, and the only selected one."""
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws.title == name
    wb.active = wb.sheetnames.index(name)
