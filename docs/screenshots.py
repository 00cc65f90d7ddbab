"""The manual's pictures, taken from the demo in Debian's chromium, so they never go stale (issue 48).

``make docs`` runs this file before building the manual: it migrates a throwaway SQLite
database, loads the demo (``manage.py load_demo``: the demo-swiss with rounds 1–2 played
and round 3 published, the book's crosstable, the club's chouette night), serves it on a
free local port, logs in as the demo's accounts and photographs each page of :data:`SHOTS`
in Russian and in English, on a phone (390×844) or a desktop (1280×800), into
``docs/manual/assets/shots/<language>/<name>.png``. The pictures are not committed: every
build takes them again, and CI takes them in its PostgreSQL pass
(``tests/browser/test_manual_browser.py``), so a page that changes changes its picture.

A new picture is a row of :data:`SHOTS` and an image line in the manual's pages (``make
docs`` in strict mode fails on a picture the manual shows and nobody took).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "manual" / "assets" / "shots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LANGUAGES = {"ru": "ru-RU", "en": "en-GB"}
#: The demo's accounts (zarik/management/demo.py; demo only).
PASSWORDS = {"organiser": "zarik-organiser", "referee": "zarik-referee"}


@dataclass(frozen=True)
class Shot:
    """One picture: its file name, the page (``{…}`` filled from :func:`demo_ids`), who looks, on what."""

    name: str
    path: str
    role: str = "public"  # public, player (the private link), organiser, referee
    viewport: str = "desktop"


SHOTS = [
    Shot("home", "/"),
    Shot("organise", "/organise/", "organiser"),
    Shot("wizard", "/organise/new/?preset=club_swiss&club={club}", "organiser"),
    Shot("rounds", "/t/{swiss}/manage/", "organiser"),
    Shot("round-draft", "/t/{swiss}/manage/round/{round}/", "organiser"),
    Shot("settings", "/t/{swiss}/manage/settings/", "organiser"),
    Shot("sections", "/t/{swiss}/manage/sections/", "organiser"),
    Shot("entries", "/t/{swiss}/manage/entries/", "organiser"),
    Shot("registrations", "/t/{swiss}/manage/registrations/", "organiser"),
    Shot("links", "/t/{swiss}/manage/links/", "organiser"),
    Shot("check-in", "/t/{swiss}/manage/check-in/", "organiser", "phone"),
    Shot("draw", "/t/{swiss}/manage/draw/", "organiser"),
    Shot("swiss-options", "/t/{swiss}/manage/swiss/", "organiser"),
    Shot("prizes", "/t/{swiss}/manage/prizes/", "organiser"),
    Shot("print", "/t/{swiss}/manage/print/", "organiser"),
    Shot("export", "/t/{swiss}/export/"),
    Shot("desk", "/t/{swiss}/desk/", "organiser"),
    Shot("results-grid", "/t/{swiss}/manage/round/{round}/results/", "referee"),
    Shot("referee", "/t/{swiss}/referee/", "referee", "phone"),
    Shot("referee-match", "/t/{swiss}/referee/{match}/", "referee", "phone"),
    Shot("disputes", "/t/{swiss}/disputes/", "organiser"),
    Shot("sanctions", "/t/{swiss}/sanctions/", "organiser"),
    Shot("private-link", "{private}", "player", "phone"),
    Shot("private-match", "{private}match/{match}/", "player", "phone"),
    Shot("pairings", "/t/{swiss}/pairings/", viewport="phone"),
    Shot("standings", "/t/{swiss}/standings/", viewport="phone"),
    Shot("crosstable", "/t/{book}/crosstable/"),
    Shot("hall", "/t/{swiss}/hall/"),
    Shot("profile", "/players/{player}/", viewport="phone"),
    Shot("club", "/clubs/{club}/"),
    Shot("members", "/clubs/{club}/members/", "organiser"),
    Shot("ratings", "/ratings/"),
    Shot("chouette", "/clubs/{club}/chouette/{session}/", "organiser", "phone"),
    Shot("tokens", "/account/tokens/", "organiser"),
    Shot("webhooks", "/t/{swiss}/manage/webhooks/", "organiser"),
]


def demo_ids() -> dict[str, object]:
    """The slugs and ids the shots' addresses need, read from the loaded demo (Django set up)."""
    from clubs.models import ChouetteSession, Club
    from tournaments.access.private_links import path_for
    from tournaments.models import Match, Round, Tournament
    from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    published = Round.objects.filter(tournament=swiss, status="published").order_by("-number").first()
    match = Match.objects.filter(round=published, entry_b__isnull=False).order_by("table").first()
    return {
        "swiss": SWISS_SLUG, "book": BOOK_SLUG, "round": published.pk, "match": match.pk,
        "player": match.entry_a.player_id, "club": Club.objects.order_by("pk").first().slug,
        "session": ChouetteSession.objects.order_by("pk").first().pk, "private": path_for(match.entry_a),
    }  # fmt: skip


def _login(context, site: str, role: str):
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", role)
    page.fill("input[name=password]", PASSWORDS[role])
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    if "/accounts/login/" in page.url:
        raise RuntimeError(f"the demo's {role} could not log in")
    return page


def shoot(browser, site: str, ids: Mapping[str, object], out: Path = OUT) -> list[Path]:
    """Every row of :data:`SHOTS` in both languages; a page that does not answer 200 is an error."""
    taken: list[Path] = []
    for language, locale in LANGUAGES.items():
        folder = out / language
        folder.mkdir(parents=True, exist_ok=True)
        for viewport in VIEWPORTS:
            pages = {}
            try:
                for role in ("public", "player", "organiser", "referee"):
                    context = browser.new_context(viewport=VIEWPORTS[viewport], locale=locale,
                                                  extra_http_headers={"Accept-Language": language})
                    pages[role] = (context, _login(context, site, role) if role in PASSWORDS else context.new_page())
                for shot in (s for s in SHOTS if s.viewport == viewport):
                    page = pages[shot.role][1]
                    response = page.goto(site + shot.path.format(**ids))
                    if response is None or response.status != 200:
                        raise RuntimeError(f"{shot.name}: {shot.path} answered {response and response.status}")
                    page.wait_for_load_state("networkidle")
                    target = folder / f"{shot.name}.png"
                    page.screenshot(path=str(target))
                    taken.append(target)
            finally:
                for context, _page in pages.values():
                    context.close()
    return taken


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def main() -> int:
    """Serve the demo from a throwaway database and photograph it (what ``make docs`` runs)."""
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium): the manual's pictures need it", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="zarik-shots-") as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/demo.sqlite3", "MEDIA_ROOT": f"{tmp}/media",
               "ZARIK_ENV": "development", "CELERY_BROKER_URL": "", "CACHE_URL": ""}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT)
        subprocess.run([*manage, "load_demo"], env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        port = _free_port()
        server = subprocess.Popen([*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            site = f"http://127.0.0.1:{port}"
            _wait(f"{site}/healthz/live")
            os.environ.update({key: env[key] for key in ("DATABASE_URL", "MEDIA_ROOT")})
            os.environ["DJANGO_SETTINGS_MODULE"] = "zarik.settings"
            sys.path.insert(0, str(ROOT))
            import django

            django.setup()
            ids = demo_ids()
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop; this script is synchronous
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    taken = shoot(browser, site, ids)
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"{len(taken)} pictures in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
