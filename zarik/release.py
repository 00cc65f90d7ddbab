"""The running release, as a short fingerprint of the code, templates and translations.

Rendered pages are kept in the shared cache under keys made of the versions of what they show
(:mod:`tournaments.cache`), and their ETags are made of those keys. Nothing in those versions
moves when the server is upgraded: without the release in the key, a new template or a fixed
view would show only once a result moved a version on, and a phone holding an old page would be
told it is current. ``ZARIK_RELEASE`` names the release where the deployment knows it (a tag or
a commit); otherwise the files are read once per process.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What a page is made of: the code that builds it, its templates and its translations.
KINDS = (".py", ".html", ".mo")
#: Folders that do not serve pages (and the environment, which is large).
SKIPPED = frozenset({".git", ".venv", "node_modules", "tests", "bench", "docs", "media", "staticfiles", "__pycache__"})


@cache
def release() -> str:
    """12 hex digits naming the running release (``ZARIK_RELEASE`` if set)."""
    given = os.environ.get("ZARIK_RELEASE", "").strip()
    if given:
        return given
    digest = hashlib.sha1()
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(KINDS):
                path = Path(folder, name)
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
