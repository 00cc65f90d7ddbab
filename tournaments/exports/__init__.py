"""Excel exports (openpyxl, no Django): :func:`write_workbook` and its option types."""

from .labels import sheet_name
from .meta import CrosstableKind, ExportOptions, TournamentInfo
from .progress import ProgressCallback
from .workbook import write_workbook

__all__ = [
    "CrosstableKind",
    "ExportOptions",
    "ProgressCallback",
    "TournamentInfo",
    "sheet_name",
    "write_workbook",
]
