"""Django's ``{# … #}`` comment ends at the end of its line: one spread over several lines is
printed as text (issue 44: the identity candidates' comment showed on five pages). Every template
keeps its ``{#`` and ``#}`` on one line; longer notes use ``{% comment %}``."""

from __future__ import annotations

import re

from django.template import engines

from tests.paths import ROOT

TEMPLATES = ROOT / "templates"
#: An opening ``{#`` whose line has no closing ``#}`` after it.
UNCLOSED = re.compile(r"\{#(?![^\n]*#\})")


def test_no_template_spreads_a_short_comment_over_several_lines():
    spread = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for text in [path.read_text(encoding="utf-8")]
        for m in UNCLOSED.finditer(text)
    ]
    assert not spread, "a {# … #} comment spans lines (it would show as text): " + ", ".join(spread)


def test_the_identity_candidates_render_no_comment_text():
    html = engines["django"].get_template("clubs/identity/_candidates.html").render({"candidates": [], "incoming": "Иванов Иван"})
    assert "{#" not in html and "#}" not in html and "Context: candidates" not in html
