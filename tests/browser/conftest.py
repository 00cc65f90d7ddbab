"""Playwright against Debian's chromium (never a downloaded browser) and the live server.

Playwright's sync API runs an event loop in the test thread, which trips Django's
async-safety check on ORM calls made by the test itself; the test is still synchronous
code, so the check is switched off while the browser fixture is alive (and restored after).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("ZARIK_REQUIRE_BROWSER", "") not in ("", "0"):
            pytest.fail(f"ZARIK_REQUIRE_BROWSER is set but {CHROMIUM} is missing")
        pytest.skip(
            f"{CHROMIUM} is not installed (apt-get install chromium); "
            "browser tests never download a browser"
        )
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
