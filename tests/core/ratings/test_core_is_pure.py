"""The ratings core must run without Django (the rate_matches command's core, the bench)."""

from __future__ import annotations

import subprocess
import sys


def test_ratings_core_imports_nothing_from_django():
    code = (
        "import sys, clubs.ratings.fibs, clubs.ratings.history, clubs.ratings.files; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert done.returncode == 0, done.stdout + done.stderr
