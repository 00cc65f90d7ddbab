"""A round played on phones (issue 30): players report and confirm on their private pages, the
referee works the results grid, and nothing is confirmed that nobody confirmed; at 390×844 the
player's current match and the desk's working area are above the fold and no page is wider than
the screen. Debian's chromium through Playwright against the live server.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Result, ResultState
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.access import private_links
from tournaments.models import Match, OfficialRole, ResultStatus
from tournaments.rounds import pairing_manager as pm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def phone(chromium, lang: str = "ru"):
    ctx = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True,
        locale="ru-RU" if lang == "ru" else "en-GB", extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    return ctx, page


def log_in(page, base: str, username: str, password: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "/accounts/login/" not in page.url, page.inner_text("main")


def above_the_fold(page, selector: str) -> bool:
    """The element starts and ends inside the first screen (no scrolling needed to see it)."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def report(page, base: str, entry, mine: int, theirs: int) -> None:
    """A player reports from their phone: private page → the match → the score (side A's first)."""
    page.goto(base + private_links.path_for(entry))
    with page.expect_navigation():
        page.click("#report-link")
    page.fill("input[name=score_a]", str(mine))
    page.fill("input[name=score_b]", str(theirs))
    with page.expect_navigation():
        page.click("form.result button[type=submit]")


@pytest.fixture
def hall(db):
    t = TournamentFactory(name="Кубок телефонов", slug="phone-hall", match_length=5, rounds_planned=3)
    org = UserFactory(username="phone-org", last_name="Орлова", first_name="Ольга")
    org.set_password("org-pass")
    org.save()
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    ref = UserFactory(username="phone-ref", last_name="Судейкин", first_name="Иван")
    ref.set_password("ref-pass")
    ref.save()
    OfficialFactory(tournament=t, user=ref, role=OfficialRole.REFEREE)
    enter(t, [
        {"last_name": f"Игроков{i}", "first_name": "Пётр", "last_name_latin": f"Igrokov{i}", "first_name_latin": "Petr"}
        for i in range(1, 9)
    ])  # fmt: skip
    [rnd] = pm.generate_next(t, user=org)
    pm.publish_round(rnd, user=org)
    tables = {
        m.table: m for m in rnd.matches.select_related("entry_a__player", "entry_b__player").order_by("table")
    }
    assert sorted(tables) == [1, 2, 3, 4]
    return {"t": t, "rnd": rnd, "tables": tables}


def test_a_round_on_phones_confirms_only_what_someone_confirmed(chromium, live_server, hall):
    base, tables, rnd = live_server.url, hall["tables"], hall["rnd"]
    contexts = []
    # Table 1: A reports 5:3, B confirms on their own phone.
    ctx_a, a = phone(chromium, "ru")
    ctx_b, b = phone(chromium, "en")
    contexts += [ctx_a, ctx_b]
    report(a, base, tables[1].entry_a, 5, 3)
    assert a.evaluate(FITS)
    b.goto(base + private_links.path_for(tables[1].entry_b))
    assert above_the_fold(b, "#current-match") and "3:5" in b.inner_text("#current-score")  # the score, mine first
    with b.expect_navigation():
        b.click("#report-link")
    with b.expect_navigation():
        b.click("ul.reports button.big")
    assert b.inner_text("#official-score") == "5:3"
    # Table 2: A reports 5:1 and nobody confirms. Table 4: A reports 2:5; the referee ticks it.
    for table, score in ((2, (5, 1)), (4, (2, 5))):
        ctx, page = phone(chromium, "ru")
        contexts.append(ctx)
        report(page, base, tables[table].entry_a, *score)
    assert Match.objects.get(pk=tables[2].pk).result_status == ResultStatus.REPORTED

    # The referee, on a phone: types table 3 from the score sheet, ticks table 4, leaves table 2 alone.
    ctx_r, r = phone(chromium, "ru")
    contexts.append(ctx_r)
    grid = reverse("manage-results", kwargs={"slug": "phone-hall", "round_id": rnd.pk})
    log_in(r, base, "phone-ref", "ref-pass", grid)
    assert r.evaluate(FITS), "the grid is wider than the phone"
    m2, m3, m4 = (f"#m{tables[n].pk}" for n in (2, 3, 4))
    assert r.locator(f"{m2}-confirm").count() == 1 and not r.locator(f"{m2}-confirm").is_checked()
    r.fill(f"{m3}-a", "5")
    r.fill(f"{m3}-b", "2")
    r.check(f"{m4}-confirm")
    with r.expect_navigation():
        r.click("main form button[type=submit]")
    assert "Игроки сообщили счёт 5:1, ждёт подтверждения." in r.inner_text("#row-2")  # shown as pending, still

    done = {m.table: m for m in Match.objects.filter(round=rnd)}
    assert {t: done[t].result_status for t in done} == {
        1: ResultStatus.CONFIRMED, 2: ResultStatus.REPORTED, 3: ResultStatus.CONFIRMED, 4: ResultStatus.CONFIRMED,
    }
    assert (done[3].score_a, done[3].score_b, done[4].score_a, done[4].score_b) == (5, 2, 2, 5)
    # Nothing is confirmed that nobody confirmed: every confirmed report names who confirmed it,
    # and table 2's report still waits with nobody's confirmation.
    for result in Result.objects.filter(match__round=rnd, state=ResultState.CONFIRMED):
        assert result.confirmed_by_id or result.confirmed_side, result
    pending = Result.objects.get(match=tables[2])
    assert pending.state == ResultState.REPORTED and not pending.confirmed_by_id and not pending.confirmed_side
    by_table = {res.match.table: res for res in Result.objects.filter(match__round=rnd, state=ResultState.CONFIRMED)
                .select_related("match", "confirmed_by")}  # fmt: skip
    assert by_table[1].confirmed_side == "b" and not by_table[1].confirmed_by_id  # the opponent, on the phone
    assert by_table[3].confirmed_by.username == by_table[4].confirmed_by.username == "phone-ref"
    # The match page names the referee and the role, never the login.
    r.goto(base + reverse("result-match", kwargs={"slug": "phone-hall", "match_id": tables[4].pk}))
    assert "Судейкин Иван (судья)" in r.inner_text("main") and "phone-ref" not in r.inner_text("main")
    for ctx in contexts:
        ctx.close()


def test_at_390_the_match_and_the_desk_come_first_and_nothing_is_wider_than_the_screen(
    chromium, live_server, hall
):
    base, tables, rnd = live_server.url, hall["tables"], hall["rnd"]
    slug = {"slug": "phone-hall"}
    ctx, p = phone(chromium, "ru")
    report(p, base, tables[1].entry_a, 5, 3)
    p.goto(base + private_links.path_for(tables[1].entry_b))
    assert above_the_fold(p, "#current-match") and above_the_fold(p, "#report-link")  # the next action too
    assert above_the_fold(p, "#current-score")
    assert p.evaluate(FITS)

    ctx_o, o = phone(chromium, "ru")
    log_in(o, base, "phone-org", "org-pass", reverse("desk", kwargs=slug))
    first_round = o.locator("main h2 + ul > li").first  # the desk's working area: the rounds and their results
    box = first_round.bounding_box()
    assert box is not None and box["y"] + min(box["height"], 120) <= PHONE["height"], box
    pages = [
        reverse("desk", kwargs=slug),
        reverse("manage-results", kwargs={**slug, "round_id": rnd.pk}),
        reverse("manage-entries", kwargs=slug),
        reverse("manage-entries-import", kwargs=slug),
        reverse("audit-log", kwargs=slug),
        reverse("dispute-list", kwargs=slug),
        reverse("result-match", kwargs={**slug, "match_id": tables[1].pk}),
        reverse("tournament", kwargs=slug),
        reverse("public-pairings", kwargs=slug),
        reverse("public-standings", kwargs=slug),
        reverse("account"),
    ]
    wide = []
    for path in pages:
        response = o.goto(base + path)
        assert response is not None and response.status == 200, path
        if not o.evaluate(FITS):
            wide.append((path, o.evaluate("document.documentElement.scrollWidth")))
    assert wide == [], f"wider than the 390 px screen: {wide}"
    ctx.close()
    ctx_o.close()
