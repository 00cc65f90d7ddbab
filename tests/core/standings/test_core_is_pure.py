"""The standings core and the Excel writer must run without Django (Celery workers, bench)."""

from __future__ import annotations

import subprocess
import sys


def test_standings_and_exports_import_nothing_from_django():
    code = (
        "import sys, tournaments.standings, tournaments.exports; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert done.returncode == 0, done.stdout + done.stderr
