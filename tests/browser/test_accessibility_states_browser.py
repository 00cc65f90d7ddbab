"""axe in the states the page list never opens (issue 44): forms refused with their errors, the
desk's match page after a refusal, a draft round with results (its delete reason), htmx
fragments opened directly, the record viewer stepped through, the 404 page; in RU and EN, phone
and desktop. It fails on a serious or critical violation and on any id used twice, as the page
audit does (``check`` in test_accessibility_browser.py).

Each state is a row of :data:`STATES`: the role, the address, and what the user does there
before the audit (``None``: only opened). Forms are sent with the browser's own validation
switched off, so the server's refusal is what the page shows (a browser without it, or a value
the browser accepts and the server refuses, gets there too).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from tests.browser.test_accessibility_browser import (
    DESKTOP,
    LANGUAGES,
    PASSWORDS,
    PHONE,
    _ids,
    _login,
    check,
)
from tests.browser.test_accessibility_browser import site as site  # noqa: F401 (the fixture)
from tests.factories import OfficialFactory, TournamentFactory, enter
from tests.paths import DATA
from tournaments.models import Match, OfficialRole, Round, Tournament
from tournaments.rounds import pairing_manager as pm
from zarik.management.demo import SWISS_SLUG

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DRAFT = "a11y-draft"
REGISTER = "a11y-register"
NO_BROWSER_CHECKS = "document.querySelectorAll('form').forEach(f => f.noValidate = true)"


def _send(page, form: str, button: str = "[type=submit]") -> None:
    """Send the form (a CSS selector) by its button with the browser's validation off, and wait
    for the answer."""
    page.evaluate(NO_BROWSER_CHECKS)
    with page.expect_navigation():
        page.locator(f"{form} {button}").first.click()


def grid_refused(page) -> None:
    page.locator("input[id$='-a']").first.fill("7")
    page.locator("input[id$='-b']").first.fill("7")  # a draw in a match to N: refused on its row
    _send(page, "main form:has(input[id$='-a'])")
    assert page.locator("[id$='-errors'] .errorlist li").count() >= 1, "the grid refused nothing"


def desk_kind_refused(page) -> None:
    _send(page, "form:has(input[name=action][value=kind])")
    assert page.locator(".errorlist").count() >= 1


def desk_lateness_refused(page) -> None:
    _send(page, "form:has(input[name=action][value=lateness])")
    assert page.locator(".errorlist").count() >= 1


def registration_refused(page) -> None:
    page.fill("input[name=email]", "not an address")
    _send(page, "main form[method=post]")
    assert page.locator(".errorlist").count() >= 1


def wizard_refused(page) -> None:
    page.fill("input[name=name]", "")
    _send(page, "form.setup", "button[name=step][value=options]")
    assert page.locator(".errorlist").count() >= 1


def new_player_refused(page) -> None:
    page.locator("details:has(#new-player) > summary").click()
    _send(page, "#new-player")
    assert page.locator(".errorlist").count() >= 1


def paste_a_record_and_step(page) -> None:
    page.fill("#id_text", (DATA / "records" / "gnubg_match3_seed7.mat").read_text())
    with page.expect_navigation():
        page.click("#paste-form button[name=ply]")
    for _ in range(3):
        page.locator("[data-nav=next]").first.click()
        page.wait_for_load_state()


#: (role, address, what is done there first, the answer's status). ``{…}`` from :func:`ids`.
STATES: list[tuple[str, str, Callable | None, int]] = [
    ("referee", "/t/{swiss}/manage/round/{round}/results/", grid_refused, 200),
    ("organiser", "/t/{swiss}/desk/match/{match}/", desk_kind_refused, 200),
    ("organiser", "/t/{swiss}/desk/match/{match}/", desk_lateness_refused, 200),
    ("public", "/t/{register}/register/", registration_refused, 200),
    ("organiser", "/organise/new/?preset=club_swiss&club={club}", wizard_refused, 200),
    ("organiser", "/t/{swiss}/manage/entries/", new_player_refused, 200),
    ("organiser", "/t/{draft}/manage/round/{draft_round}/", None, 200),
    # htmx fragments opened as addresses of their own
    ("organiser", "/t/{swiss}/manage/entries/search/?q=a", None, 200),
    ("organiser", "/clubs/{club}/members/search/?q=a", None, 200),
    ("public", "/t/{swiss}/hall/frame/?page=2", None, 200),
    ("organiser", "/t/{swiss}/manage/round/{round}/analysis/", None, 200),
    ("public", "/records/view/", paste_a_record_and_step, 200),
    ("public", "/t/no-such-event/", None, 404),
]


@pytest.fixture
def states_site(site):  # noqa: F811
    """The audit's site, a swiss with a lateness rule, an event open for registration, and a
    draft round carrying a result (its delete form asks for a reason)."""
    Tournament.objects.filter(slug=SWISS_SLUG).update(late_penalty_minutes=5, late_forfeit_minutes=30)
    TournamentFactory(slug=REGISTER, name="Открытая регистрация", public=True, registration_open=True)
    draft = TournamentFactory(slug=DRAFT, name="Черновик доступности", rounds_planned=3, match_length=5)
    for username in ("organiser", "referee"):
        user = get_user_model().objects.get(username=username)
        OfficialFactory(tournament=draft, user=user, role=OfficialRole.ORGANISER)
    enter(draft, [{"last_name": f"Черновиков{i}", "first_name": "Пётр"} for i in range(1, 7)])
    [rnd] = pm.generate_next(draft, user=get_user_model().objects.get(username="organiser"))
    Match.objects.filter(round=rnd, table=1).update(score_a=5, score_b=2)
    return site


def ids() -> dict:
    draft = Round.objects.get(tournament__slug=DRAFT)
    return {**_ids(), "draft": DRAFT, "draft_round": draft.pk, "register": REGISTER}


def audit_states(chromium, site: str, language: str, viewport: dict) -> tuple[list[str], Counter]:
    values = ids()
    axe = Axe()
    failures: list[str] = []
    impacts: Counter = Counter()
    pages = {}
    for role in ("public", "organiser", "referee"):
        context = chromium.new_context(
            viewport=viewport, locale=LANGUAGES[language], extra_http_headers={"Accept-Language": language}
        )
        page = _login(context, site, role) if role in PASSWORDS else context.new_page()
        page.set_default_timeout(20_000)
        pages[role] = (context, page)
    try:
        for role, template, action, status in STATES:
            path = template.format(**values)
            page = pages[role][1]
            where = f"{language} {viewport['width']}px {role} {path}{' ' + action.__name__ if action else ''}"
            response = page.goto(site + path)
            if response is None or response.status != status:
                failures.append(f"{where}: answered {response and response.status}, not {status}")
                continue
            if action:
                action(page)
            failures += check(page, axe, where, impacts)
    finally:
        for context, _page in pages.values():
            context.close()
    return failures, impacts


@pytest.mark.parametrize("language", ["ru", "en"])
def test_no_serious_violation_and_no_duplicate_id_in_error_states(chromium, states_site, language):
    report, failures = [], []
    for viewport in (PHONE, DESKTOP):
        found, impacts = audit_states(chromium, states_site, language, viewport)
        failures += found
        report.append(f"{language} {viewport['width']}px: {dict(impacts)} over {len(STATES)} states")
    if os.environ.get("ZARIK_A11Y_REPORT"):
        print("\n".join(report + failures))
    assert not failures, "\n".join(failures)
