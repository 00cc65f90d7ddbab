"""MkDocs hook: the built manual runs under the app's strict Content-Security-Policy.

The app serves the manual at ``/help/`` with the same header as every page (``script-src
'self'``, ``style-src 'self'``, no ``unsafe-inline``: zarik/settings.py). Material writes a
few small scripts inline (its local-storage helpers, the palette, content tabs), which that
policy would block. Rather than loosen the policy for the manual, each inline script is
moved into a file of its own under ``assets/javascripts/inline/``, named by its content's
hash, and loaded from there in the same place, so it runs in the same order. Data blocks
(``type="application/json"``, Material's ``__config``) are not scripts and stay.

After that, a page that still holds inline code (a ``<style>`` element, a ``style=``
attribute, an ``on…=`` handler, an inline script) fails the build, so a theme upgrade or a
Markdown extension that brings one in is caught by ``make docs`` (strict) in CI.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
DATA_TYPE = re.compile(r"""\btype\s*=\s*["'](?!text/javascript|module)[^"']+["']""", re.I)
INLINE_STYLE = re.compile(r"<style[\s>]|\sstyle\s*=\s*[\"']", re.I)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=\s*[\"']", re.I)
FOLDER = "assets/javascripts/inline"

#: File name → content, written once the site is built.
_moved: dict[str, str] = {}


def _relative_root(page_url: str) -> str:
    """The path from a page's folder back to the site's root (``../../`` for ``en/player/``)."""
    depth = page_url.strip("/").count("/") + 1 if page_url.strip("/") else 0
    if page_url and not page_url.endswith("/"):  # a file such as 404.html sits in its folder
        depth -= 1
    return "../" * depth


def externalise(html: str, page_url: str) -> str:
    """The page with each inline script replaced by a ``<script src>`` of its own file."""
    root = _relative_root(page_url)

    def move(found: re.Match[str]) -> str:
        attrs, body = found.group("attrs"), found.group("body")
        if "src=" in attrs.lower() or DATA_TYPE.search(attrs) or not body.strip():
            return found.group(0)
        name = hashlib.sha256(body.encode()).hexdigest()[:16] + ".js"
        _moved[name] = body
        return f'<script src="{posixpath.join(root, FOLDER, name)}"{attrs}></script>'

    return SCRIPT.sub(move, html)


def inline_code(html: str) -> list[str]:
    """What in a page the CSP would still block: inline scripts, styles and event handlers."""
    found = []
    for script in SCRIPT.finditer(html):
        attrs = script.group("attrs")
        if "src=" not in attrs.lower() and not DATA_TYPE.search(attrs) and script.group("body").strip():
            found.append(script.group(0)[:80])
    found += [m.group(0) for m in INLINE_STYLE.finditer(html)]
    found += [m.group(0)[:80] for m in HANDLER.finditer(html)]
    return found


def on_post_page(output: str, page, config) -> str:
    html = externalise(output, page.url)
    blocked = inline_code(html)
    if blocked:
        raise PluginError(f"{page.file.src_uri}: inline code the CSP blocks: {blocked[:3]}")
    return html


def on_post_build(config) -> None:
    folder = Path(config["site_dir"]) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in _moved.items():
        (folder / name).write_text(body, encoding="utf-8")
    # The 404 page is written by the theme outside on_post_page: hold it to the same rule.
    for page in Path(config["site_dir"]).rglob("404.html"):
        relative = page.relative_to(config["site_dir"]).as_posix()
        html = externalise(page.read_text(encoding="utf-8"), relative)
        for name, body in _moved.items():
            (folder / name).write_text(body, encoding="utf-8")
        blocked = inline_code(html)
        if blocked:
            raise PluginError(f"{relative}: inline code the CSP blocks: {blocked[:3]}")
        page.write_text(html, encoding="utf-8")
