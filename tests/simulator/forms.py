"""Read a rendered form as the browser would send it: every field with the value it shows."""

from __future__ import annotations

from html.parser import HTMLParser


class _Fields(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if not name:
            return
        if tag == "input" and attrs.get("type", "text") not in ("submit", "button", "checkbox", "radio"):
            self.fields[name] = attrs.get("value") or ""
        elif tag == "input" and "checked" in attrs:
            self.fields[name] = attrs.get("value") or "on"
        elif tag == "textarea":
            self._textarea = name
            self.fields[name] = ""

    def handle_data(self, data):
        if self._textarea:
            self.fields[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None


def form_fields(html: str) -> dict[str, str]:
    """The page's named inputs and textareas with their shown values (selects are not read)."""
    parser = _Fields()
    parser.feed(html)
    return parser.fields


def grid_prefix(fields: dict[str, str], match) -> str | None:
    """The results grid's field prefix of ``match``, if the grid shows it."""
    prefix = f"m{match.pk}"
    return prefix if f"{prefix}-a" in fields else None
