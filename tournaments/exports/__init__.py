"""Excel exports (openpyxl, no Django): :func:`write_workbook` and its option types."""

from .labels import SHEET_CROSSTABLE, SHEET_PAIRINGS, SHEET_PLAYERS, SHEET_STANDINGS
from .meta import CrosstableKind, ExportOptions, TournamentInfo
from .progress import ProgressCallback
from .workbook import write_workbook

__all__ = [
    "SHEET_CROSSTABLE",
    "SHEET_PAIRINGS",
    "SHEET_PLAYERS",
    "SHEET_STANDINGS",
    "CrosstableKind",
    "ExportOptions",
    "ProgressCallback",
    "TournamentInfo",
    "write_workbook",
]
