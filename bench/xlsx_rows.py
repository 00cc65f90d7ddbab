"""How long an XLSX of empty rows holds a worker before it is refused (issue 45).

Run: ``.venv/bin/python bench/xlsx_rows.py [ROWS]``. Builds a sheet of ``ROWS`` empty
``<row/>`` elements (default 5,000,000) with no ``<dimension>`` — about 45 KB packed — and
times :func:`tournaments.entries.importer.read_file` until it answers
``entry.import_too_many_rows``. Before the streaming count (openpyxl alone read the whole
sheet looking for a dimension): 7.6–20 s on the shared, loaded 2-core machine; after: 0.07–0.15 s.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

import django  # noqa: E402

django.setup()

from tests.zarik.test_hardening_bodies import _row, _xlsx  # noqa: E402
from tournaments.entries import importer  # noqa: E402


def main(rows: int) -> None:
    data = _xlsx([_row(1, "Фамилия"), *([b"<row/>" * 100_000] * (rows // 100_000))])
    started = time.monotonic()
    try:
        importer.read_file("empty-rows.xlsx", data)
        answer = "accepted"
    except importer.ImportRefused as refused:
        answer = refused.problem.code
    print(f"{rows:,} empty rows, {len(data):,} bytes packed: {answer} in {time.monotonic() - started:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000)
