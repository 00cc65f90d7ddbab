"""Issue 48: the manual's pictures are taken afresh from the demo, the manual builds in strict mode,
and the app serves every page of it at /help/ in both languages under the strict CSP.

This is CI's `make docs` (it runs in the PostgreSQL pass with the other browser tests): the same
screenshot code (docs/screenshots.py) drives the demo on the live server in Debian's chromium,
then ``mkdocs build --strict`` builds the manual with those pictures — a broken link, a missing
anchor, a picture nobody took or inline code the CSP would block fails here — and chromium reads
every built page through the app, listening for CSP violations. Finally the "?" links: each
topic's anchor is a heading of the built page in both languages, and the rounds page's "?" opens
its section in the organiser's language.
"""

from __future__ import annotations

import importlib.util
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zarik.help import TOPICS, help_url
from zarik.management.demo import load_demo

pytestmark = [pytest.mark.browser, pytest.mark.long, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SHOT = re.compile(r"assets/shots/(ru|en)/([a-z0-9-]+)\.png")
#: Violations reported by the page itself, gathered before any of its scripts run.
LISTEN = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
          "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def _screenshots():
    spec = importlib.util.spec_from_file_location("manual_screenshots", ROOT / "docs" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _png_width(path: Path) -> int:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">I", header[16:20])[0]


def _violations(page) -> list[str]:
    return page.evaluate("window.__csp || []")


def test_the_manual_is_built_with_fresh_pictures_and_served_at_help_under_the_csp(
    chromium, live_server, tmp_path, settings
):
    load_demo()
    shots = _screenshots()
    started = time.time()

    # 1. The pictures: every row of SHOTS in both languages, taken now, at the size it names.
    taken = shots.shoot(chromium, live_server.url, shots.demo_ids())
    assert len(taken) == 2 * len(shots.SHOTS)
    widths = {shot.name: shots.VIEWPORTS[shot.viewport]["width"] for shot in shots.SHOTS}
    for path in taken:
        assert path.stat().st_mtime >= started - 1, f"{path} is not fresh"
        assert _png_width(path) == widths[path.stem], path

    # 2. The build, in strict mode, with those pictures.
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "docs/mkdocs.yml", "-d", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert "WARNING" not in built.stderr, built.stderr[-3000:]
    pages = sorted(site.rglob("index.html"))
    english = [p for p in pages if p.relative_to(site).parts[0] == "en"]
    assert len(english) >= 17 and len(pages) == 2 * len(english), [str(p) for p in pages]

    # Every picture the manual shows is one just taken, and every picture taken is shown.
    shown = {m.groups() for p in pages for m in SHOT.finditer(p.read_text(encoding="utf-8"))}
    assert shown == {(language, shot.name) for language in ("ru", "en") for shot in shots.SHOTS}

    # 3. Served by the app: every page in both languages, no CSP violation, nothing from outside.
    settings.HELP_ROOT = site
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(LISTEN)
    outside: list[str] = []
    context.on("request", lambda r: r.url.startswith(live_server.url) or outside.append(r.url))
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(f"{page.url}: {m.text}"))
    try:
        for built_page in pages:
            address = "/help/" + built_page.parent.relative_to(site).as_posix() + "/"
            address = address.replace("/help/./", "/help/").replace("/help//", "/help/")
            answer = page.goto(live_server.url + address)
            assert answer is not None and answer.status == 200, address
            assert "script-src 'self'" in answer.headers["content-security-policy"]
            page.wait_for_load_state("networkidle")
            assert _violations(page) == [], (address, _violations(page))
        # Offline search (a web worker and a JSON index from our own files) finds a word of the book.
        page.goto(live_server.url + "/help/en/")
        page.locator("label.md-search__icon, label[for=__search]").first.click()
        page.locator("input.md-search__input").fill("Buchholz")
        page.wait_for_selector(".md-search-result__item", timeout=15_000)
        assert _violations(page) == []
        assert errors == [], errors
        assert outside == [], outside
    finally:
        context.close()

    # 4. Every "?" topic is a heading of its page, in both languages.
    for language in ("ru", "en"):
        for name in TOPICS:
            address, anchor = help_url(name, language).removeprefix("/help/").split("#")
            html = (site / address / "index.html").read_text(encoding="utf-8")
            assert re.search(rf'<h[1-6] id="{re.escape(anchor)}"', html), (language, name, address, anchor)

    # Russian and English side by side: each page's language switch leads to the same page translated.
    for built_page in english:
        address = built_page.parent.relative_to(site / "en").as_posix().removeprefix(".")
        html = built_page.read_text(encoding="utf-8")
        switch = re.search(r'<a href="([^"]+)" hreflang="ru"', html)
        assert switch, address
        href = switch.group(1)
        target = (site / href.removeprefix("/help/") if href.startswith("/help/") else built_page.parent / href).resolve()
        assert target == (site / address).resolve(), (address, switch.group(1))

    # 5. The rounds page's "?" opens its section in the organiser's language.
    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "organiser")
        page.fill("input[name=password]", "zarik-organiser")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        page.goto(f"{live_server.url}/t/demo-swiss/manage/")
        with page.expect_navigation():
            page.locator("h1 a.help-link").click()
        assert page.url.endswith("/help/en/organiser/rounds/#rounds"), page.url
        assert page.locator("h2#rounds").is_visible()
        page.goto(f"{live_server.url}/t/demo-swiss/")
        assert page.locator("footer.site a").get_attribute("href") == "/help/en/"
    finally:
        context.close()
