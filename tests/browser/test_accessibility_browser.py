"""WCAG 2.1 AA in a real browser: axe-core over every page the journeys walk, in RU and EN, phone and desktop.

axe-core comes inside ``axe-playwright-python`` (no CDN) and is injected through the
DevTools protocol, so the pages' strict CSP stays as it is. A serious or critical
violation anywhere fails the test with the page, the rule and the nodes; minor and
moderate ones are reported, not failed (they are judgement calls, e.g. region landmarks).

The pages are those the browser tests and the organiser's journey visit, for each role
that reaches them: the public, the organiser (setup, rounds, entries, links, check-in,
prizes, registrations, webhooks, print, club pages, the chouette, seasons, tokens), the
referee (result entry, the results grid, the desk, disputes, records) and a player on
their private link. ``PAGES`` is the one list; a new page is a new row.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from clubs.models import ChouetteSession, Club
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tests.paths import DATA
from tournaments.access.private_links import path_for
from tournaments.models import Match, OfficialRole, Round, Tournament
from tournaments.rounds import pairing_manager as pm
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LANGUAGES = {"ru": "ru-RU", "en": "en-GB"}
#: WCAG 2.0 and 2.1, levels A and AA: the rules the audit ran.
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
FAILING = {"serious", "critical"}
#: Text drawn in its own background colour: axe leaves it "incomplete" (it may be meant to be
#: hidden), but on a button or a link it is a blank block (a stylesheet once did that).
INVISIBLE_TEXT = """[...document.querySelectorAll("a, button, input[type=submit]")].filter(el => {
  const style = getComputedStyle(el), text = (el.innerText || el.value || "").trim();
  if (!text || style.visibility === "hidden" || el.offsetParent === null) return false;
  return style.backgroundColor !== "rgba(0, 0, 0, 0)" && style.color === style.backgroundColor;
}).map(el => (el.innerText || el.value).trim())"""
#: Every id used more than once (axe's own duplicate-id rules are deprecated and only "minor"; two
#: inputs with one id leave one of them unlabelled, as the desk's match page once did).
DUPLICATE_IDS = """(() => { const seen = {};
  document.querySelectorAll("[id]").forEach(el => { seen[el.id] = (seen[el.id] || 0) + 1; });
  return Object.keys(seen).filter(id => seen[id] > 1); })()"""
CUP = "a11y-cup"


def _ids() -> dict:
    """The ids and slugs the page list needs, read from the demo and a small cup."""
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    published = Round.objects.filter(tournament=swiss, status="published").order_by("-number").first()
    match = Match.objects.filter(round=published, entry_b__isnull=False).order_by("table").first()
    player = match.entry_a.player
    other = match.entry_b.player
    club = Club.objects.order_by("pk").first()
    session = ChouetteSession.objects.order_by("pk").first()
    cup = Tournament.objects.get(slug=CUP)
    return {
        "swiss": SWISS_SLUG, "book": BOOK_SLUG, "round": published.pk, "match": match.pk,
        "entry": match.entry_a_id, "player": player.pk, "other": other.pk, "club": club.slug,
        "session": session.pk if session else None, "private": path_for(match.entry_a), "cup": CUP,
        "cup_round": Round.objects.filter(tournament=cup).order_by("number").first().pk,
    }  # fmt: skip


#: (role, path template): ``{…}`` are filled from :func:`_ids`. Roles log in as the demo's
#: accounts; "player" is the private link, no account.
PAGES = [
    ("public", "/"),
    ("public", "/accounts/login/"),
    ("public", "/t/{swiss}/"),
    ("public", "/t/{swiss}/pairings/"),
    ("public", "/t/{swiss}/standings/"),
    ("public", "/t/{swiss}/crosstable/"),
    ("public", "/t/{swiss}/crosstable/rounds/"),
    ("public", "/t/{swiss}/player/{entry}/"),
    ("public", "/t/{swiss}/export/"),
    ("public", "/t/{swiss}/hall/"),
    ("public", "/t/{book}/crosstable/"),
    ("public", "/t/{book}/standings/"),
    ("public", "/t/{cup}/bracket/"),
    ("public", "/t/{cup}/"),
    ("public", "/records/view/"),
    ("public", "/clubs/"),
    ("public", "/clubs/{club}/"),
    ("public", "/ratings/"),
    ("public", "/players/{player}/"),
    ("public", "/players/{player}/vs/{other}/"),
    ("player", "{private}"),
    ("player", "{private}match/{match}/"),
    ("organiser", "/me/"),
    ("organiser", "/organise/"),
    ("organiser", "/organise/club/{club}/"),
    ("organiser", "/organise/new/"),
    ("organiser", "/organise/new/?preset=club_swiss&club={club}"),
    ("organiser", "/organise/new/?preset=cup&club={club}"),
    ("organiser", "/t/{swiss}/manage/"),
    ("organiser", "/t/{swiss}/manage/round/{round}/"),
    ("organiser", "/t/{swiss}/manage/settings/"),
    ("organiser", "/t/{swiss}/manage/sections/"),
    ("organiser", "/t/{swiss}/manage/officials/"),
    ("organiser", "/t/{swiss}/manage/swiss/"),
    ("organiser", "/t/{swiss}/manage/rulings/"),
    ("organiser", "/t/{swiss}/manage/entries/"),
    ("organiser", "/t/{swiss}/manage/links/"),
    ("organiser", "/t/{swiss}/manage/check-in/"),
    ("organiser", "/t/{swiss}/manage/prizes/"),
    ("organiser", "/t/{swiss}/manage/registrations/"),
    ("organiser", "/t/{swiss}/manage/webhooks/"),
    ("organiser", "/t/{swiss}/manage/draw/"),
    ("organiser", "/t/{swiss}/manage/print/"),
    ("organiser", "/t/{swiss}/audit/"),
    ("organiser", "/t/{cup}/manage/"),
    ("organiser", "/clubs/{club}/members/"),
    ("organiser", "/clubs/{club}/members/merge/"),
    ("organiser", "/clubs/{club}/chouette/"),
    ("organiser", "/clubs/{club}/chouette/{session}/"),
    ("organiser", "/clubs/{club}/seasons/new/"),
    ("organiser", "/account/tokens/"),
    ("referee", "/account/"),
    ("referee", "/t/{swiss}/referee/"),
    ("referee", "/t/{swiss}/referee/{match}/"),
    ("referee", "/t/{swiss}/manage/round/{round}/results/"),
    ("referee", "/t/{swiss}/manage/round/{round}/records/"),
    ("referee", "/t/{swiss}/match/{match}/record/"),
    ("organiser", "/t/{swiss}/disputes/"),
    ("organiser", "/t/{swiss}/sanctions/"),
    ("organiser", "/t/{swiss}/desk/"),
    ("organiser", "/t/{swiss}/desk/match/{match}/"),
]
PASSWORDS = {"organiser": "zarik-organiser", "referee": "zarik-referee"}


@pytest.fixture
def site(live_server):
    load_demo()
    cup = TournamentFactory(name="Кубок доступности", slug=CUP, system="knockout", rounds_planned=None)
    director = UserFactory(username="a11y-director")
    OfficialFactory(tournament=cup, user=director, role=OfficialRole.ORGANISER)
    for name in ("organiser", "referee"):
        OfficialFactory(tournament=cup, user=get_user_model().objects.get(username=name), role=OfficialRole.ORGANISER)
    enter(cup, [{"last_name": f"Доступов{i}", "first_name": "Иван"} for i in range(1, 7)])
    [first] = pm.generate_next(cup, user=director)
    pm.publish_round(first, user=director)
    return live_server.url


def _login(context, site: str, role: str):
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", role)
    page.fill("input[name=password]", PASSWORDS[role])
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    assert "/accounts/login/" not in page.url, f"{role} could not log in"
    return page


def check(page, axe: Axe, where: str, impacts: Counter) -> list[str]:
    """The page as it is now through axe (WCAG 2.x A/AA), the invisible-text check and the
    duplicate ids: the failures as readable lines; every violation is counted in ``impacts``."""
    failures = []
    results = axe.run(page, options=AXE_OPTIONS).response
    for text in page.evaluate(INVISIBLE_TEXT):
        failures.append(f"{where}: invisible text {text!r}")
    for ident in page.evaluate(DUPLICATE_IDS):
        impacts["duplicate-id"] += 1
        failures.append(f"{where}: duplicate-id id={ident!r} is used more than once")
    for violation in results["violations"]:
        impacts[violation["impact"]] += len(violation["nodes"])
        if violation["impact"] in FAILING or violation["id"].startswith("duplicate-id"):
            targets = ", ".join(str(n["target"]) for n in violation["nodes"][:4])
            failures.append(
                f"{where}: {violation['impact']} {violation['id']} ({len(violation['nodes'])} nodes: {targets})"
            )
    return failures


def audit(chromium, site: str, language: str, viewport: dict) -> tuple[list[str], Counter]:
    """Every page of :data:`PAGES` through axe: (failures as readable lines, all violations by impact)."""
    ids = _ids()
    axe = Axe()
    failures: list[str] = []
    impacts: Counter = Counter()
    pages = {}
    for role in ("public", "player", "organiser", "referee"):
        context = chromium.new_context(
            viewport=viewport, locale=LANGUAGES[language], extra_http_headers={"Accept-Language": language}
        )
        pages[role] = (context, _login(context, site, role) if role in PASSWORDS else context.new_page())
    try:
        for role, template in PAGES:
            if "{session}" in template and ids["session"] is None:
                continue
            path = template.format(**ids)
            page = pages[role][1]
            response = page.goto(site + path)
            if response is None or response.status >= 400:
                failures.append(f"{role} {path}: answered {response and response.status}, not a page")
                continue
            failures += check(page, axe, f"{language} {viewport['width']}px {role} {path}", impacts)
    finally:
        for context, _page in pages.values():
            context.close()
    return failures, impacts


@pytest.mark.parametrize("language", ["ru", "en"])
def test_no_serious_or_critical_violation_on_any_page_phone_and_desktop(chromium, site, language):
    report = []
    failures = []
    for viewport in (PHONE, DESKTOP):
        found, impacts = audit(chromium, site, language, viewport)
        failures += found
        report.append(f"{language} {viewport['width']}px: {dict(impacts)} over {len(PAGES)} pages")
    if os.environ.get("ZARIK_A11Y_REPORT"):
        print("\n".join(report + failures))
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- keyboard only

GRID_PASSWORD = "grid-keys-1"


def _tabs_until(page, predicate: str, limit: int = 40) -> int:
    """Press Tab until ``predicate`` (JS, over ``el``, the focused element) holds; how many presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"(el => {predicate})(document.activeElement)"):
            return presses
    raise AssertionError(f"{predicate} never held within {limit} Tab presses")


def _type_rows_and_save(page, scores) -> None:
    """Type each row's two scores from the focused cell on (Tab between cells), then Enter."""
    for a, b in scores:
        page.keyboard.type(a)
        page.keyboard.press("Tab")
        page.keyboard.type(b)
        page.keyboard.press("Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_round_on_the_results_grid_with_the_keyboard_only(chromium, live_server):
    """The skip link reaches the grid in three keys after a save, scores say their table and
    player, and the saved rows are announced (a status region)."""
    t = TournamentFactory(slug="grid-a11y", match_length=5, rounds_planned=3)
    desk = UserFactory(username="grid-desk")
    desk.set_password(GRID_PASSWORD)
    desk.save()
    OfficialFactory(tournament=t, user=desk, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Клавишин{i}", "short": True} for i in range(1, 9)])
    [rnd] = pm.generate_next(t, user=desk)
    pm.publish_round(rnd, user=desk)
    matches = list(rnd.matches.order_by("table"))
    grid = f"/t/{t.slug}/manage/round/{rnd.pk}/results/"

    context = chromium.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={grid}")
    page.keyboard.type("grid-desk")
    page.keyboard.press("Tab")
    page.keyboard.type(GRID_PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(grid)
    first = f"m{matches[0].pk}-a"
    assert page.evaluate("document.activeElement.id") == first
    label = page.evaluate(f"document.querySelector('label[for={first}]').textContent")
    assert "Стол 1" in label and "Клавишин" in label  # the cell says its table, not only a name
    _type_rows_and_save(page, [("5", "2"), ("1", "5")])  # tables 1 and 2 now
    assert "2" in page.inner_text("[role=status]")  # "2 saved.", announced
    assert page.evaluate("document.activeElement.id") == f"m{matches[2].pk}-a"  # the first empty row
    _type_rows_and_save(page, [("5", "4"), ("0", "5")])
    assert "2" in page.inner_text("[role=status]")

    # Every row saved, nothing to focus. From the top of the page: the first Tab is the page's
    # skip link (Enter: the content), the next the grid's (Enter), and Tab is in the first cell,
    # instead of walking the header and the organiser's tabs.
    assert _tabs_until(page, "el.classList.contains('skip') && el.getAttribute('href') === '#main'") == 1
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#results-grid"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == first
    rnd.refresh_from_db()
    assert [m.result_status for m in rnd.matches.all()] == ["confirmed"] * 4
    context.close()


def test_stepping_through_a_record_keeps_the_focus_on_the_pressed_control(chromium, live_server):
    """The pasted viewer reloads on every step and the match viewer swaps its board in: either
    way the focus stays on "Next", a visible ring shows it, and the current move is marked."""
    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.goto(f"{live_server.url}/records/view/")
    page.fill("#id_text", (DATA / "records" / "gnubg_match3_seed7.mat").read_text())
    with page.expect_navigation():
        page.click("#paste-form button[name=ply]")
    _tabs_until(page, "el.dataset.nav === 'next'")
    for ply in (1, 2, 3):
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.get_attribute("#record-board", "data-ply") == str(ply)
        assert page.evaluate("document.activeElement.dataset.nav") == "next"
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert ring != "none"  # the focus is visible
    current = page.locator('.moves [aria-current="step"]')
    assert current.count() == 1 and "current" in current.get_attribute("class")
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")  # the keys follow the same control
    assert page.get_attribute("#record-board", "data-ply") == "4"
    assert page.evaluate("document.activeElement.dataset.nav") == "next"
    context.close()
