"""The desk types a whole round's results into the grid with the keyboard only.

Drives Debian's chromium through Playwright against the live server: the cursor
starts in the first score cell, Tab walks along the row and down the round, and
Enter saves every row through the result workflow. Marked ``browser``; skipped
without /usr/bin/chromium.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.models import OfficialRole, ResultStatus, RoundStatus
from tournaments.rounds import pairing_manager as pm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIMEOUT = 15_000


def test_round_results_typed_with_the_keyboard_only(chromium, live_server):
    t = TournamentFactory(slug="grid-keys", match_length=5, rounds_planned=3)
    org = UserFactory(username="desk")
    org.set_password("desk-pass")
    org.save()
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Игрок{i}", "short": True} for i in range(1, 9)])
    [rnd] = pm.generate_next(t, user=org)
    pm.publish_round(rnd, user=org)
    grid = reverse("manage-results", kwargs={"slug": t.slug, "round_id": rnd.pk})

    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/accounts/login/?next={grid}")
    page.fill("input[name=username]", "desk")
    page.fill("input[name=password]", "desk-pass")
    with page.expect_navigation():
        page.press("input[name=password]", "Enter")
    assert page.url.endswith(grid), page.inner_text("main")

    first = rnd.matches.order_by("table").first()
    assert page.evaluate("document.activeElement.id") == f"m{first.pk}-a"  # typing starts at once
    scores = {1: ("5", "2"), 2: ("1", "5"), 3: ("5", "4"), 4: ("0", "5")}
    for table in sorted(scores):
        a, b = scores[table]
        page.keyboard.type(a)
        page.keyboard.press("Tab")
        page.keyboard.type(b)
        if table < len(scores):
            page.keyboard.press("Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "4 saved." in page.inner_text("main")

    for m in rnd.matches.order_by("table"):
        assert m.result_status == ResultStatus.CONFIRMED
        assert (str(m.score_a), str(m.score_b)) == scores[m.table]
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED
    context.close()
