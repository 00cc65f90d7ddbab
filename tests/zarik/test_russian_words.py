"""The Russian pages speak Russian (issue 44: «slug» and «Ctrl» were left in the translations;
a phone has no Ctrl key)."""

from __future__ import annotations

import re

from tests.paths import ROOT

LEFTOVERS = re.compile(r"\bslug\b|Ctrl", re.IGNORECASE)


def test_no_russian_translation_keeps_slug_or_ctrl():
    po = (ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    found = [line for line in po.splitlines() if line.startswith("msgstr") and LEFTOVERS.search(line)]
    assert not found, found
