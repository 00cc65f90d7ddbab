"""The whole organiser journey in a real browser, by a club organiser who is not a superuser.

Create a 16-player Swiss from the club-Swiss preset, import the entries from a
file, hold the open draw, generate and publish round 1, enter the results —
two matches through the players' private links, the rest in the results grid
— see the round close, generate round 2 and download the Excel workbook. No
page of the back office (``/admin/``) may be visited on the way.

Marked ``journey`` rather than ``browser`` so CI runs it in both passes, on
SQLite and on PostgreSQL (the issue's definition of done).
"""

from __future__ import annotations

import io

import openpyxl
import pytest

from clubs.models import Club, ClubRole, ClubRoleKind
from tests.factories import UserFactory
from tournaments.models import Entry, Match, ResultStatus, Round, RoundStatus, Tournament

pytestmark = [pytest.mark.journey, pytest.mark.django_db(transaction=True)]
TIMEOUT = 20_000

SURNAMES = [
    "Семёнов", "Иванов", "Петров", "Сидоров", "Кузнецов", "Смирнов", "Попов", "Васильев",
    "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Козлов",
]


def _entries_csv() -> bytes:
    lines = ["Фамилия,Имя,Клуб,Категория,Рейтинг"]
    for i, surname in enumerate(SURNAMES):
        lines.append(f"{surname},Игрок{i + 1},Зарик,{1 + i % 9},{1400 + 10 * i}")
    return ("\ufeff" + "\n".join(lines) + "\n").encode("utf-8")


def _click_and_wait(page, selector: str) -> None:
    with page.expect_navigation(timeout=TIMEOUT):
        page.click(selector)


def test_a_club_organiser_runs_a_swiss_from_creation_to_excel(chromium, live_server, tmp_path):
    club = Club.objects.create(name="Зарик", slug="zarik")
    organiser = UserFactory(username="director", password="director-pass")
    ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
    assert not organiser.is_superuser and not organiser.is_staff
    base = live_server.url
    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"},
                                   accept_downloads=True)  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))

    # Log in; the organiser's own pages list the club.
    page.goto(f"{base}/accounts/login/?next=/organise/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "director-pass")
    _click_and_wait(page, "main form button[type=submit]")
    assert "Зарик" in page.inner_text("main")

    # 1. The wizard: the club-Swiss preset, then the options, then create.
    page.click("text=New tournament")
    page.check("input[name=preset][value=club_swiss]")
    page.fill("#id_name", "Journey Swiss")  # the first step: what every event needs
    _click_and_wait(page, "button[type=submit]:has-text('Next')")
    page.click("#group-event > summary")  # the options wait in closed groups (issue 44)
    page.fill("#id_slug", "journey-swiss")
    page.click("#group-pairing > summary")
    page.fill("#id_rounds_planned", "5")
    _click_and_wait(page, "button[name=step][value=options]")
    _click_and_wait(page, "button[name=step][value=create]")
    t = Tournament.objects.get(slug="journey-swiss")
    assert (t.club_id, t.system, t.match_length) == (club.pk, "swiss", 7)

    # 2. Import the 16 entries from a CSV file: preview first, then confirm.
    page.click("nav.tabs >> text=Entries")
    page.click("text=Import from a file")
    upload = tmp_path / "entries.csv"
    upload.write_bytes(_entries_csv())
    page.set_input_files("input[type=file]", str(upload))
    _click_and_wait(page, "main form button[type=submit]")
    assert "16 will be entered" in page.inner_text("#import-summary")
    assert Entry.objects.filter(tournament=t).count() == 0  # nothing written before confirming
    _click_and_wait(page, "button[name=confirm]")
    assert Entry.objects.filter(tournament=t).count() == 16

    # 3. The open draw: commitment, then the draw itself after a confirmation.
    page.click("nav.tabs >> text=Draw")
    _click_and_wait(page, "button:has-text('Publish the commitment')")
    page.click("a:has-text('Hold the draw…')")
    _click_and_wait(page, "button:has-text('Hold the draw now')")
    numbers = sorted(Entry.objects.filter(tournament=t).values_list("draw_number", flat=True))
    assert numbers == list(range(1, 17))

    # 4. Generate round 1 and publish it after the confirmation step.
    page.click("nav.tabs >> text=Rounds")
    _click_and_wait(page, "main form[action$='/generate/'] button[type=submit]")
    round1 = Round.objects.get(tournament=t, number=1)
    assert round1.matches.count() == 8
    if "/round/" not in page.url:
        page.goto(f"{base}/t/{t.slug}/manage/round/{round1.pk}/")
    page.click("a:has-text('Publish…')")
    _click_and_wait(page, "button:has-text('Yes, publish round 1')")
    round1.refresh_from_db()
    assert round1.status == RoundStatus.PUBLISHED

    # 5. Two matches reported and confirmed by the players through their private links.
    page.click("nav.tabs >> text=Private links")
    links = {
        int(field.get_attribute("id").removeprefix("link-")): field.input_value()
        for field in page.locator("input.link-field").all()
    }
    assert len(links) == 16
    by_link = list(round1.matches.order_by("table")[:2])
    for match in by_link:
        player = context.new_page()
        player.set_default_timeout(TIMEOUT)
        player.on("request", lambda request: visited.append(request.url))
        player.goto(links[match.entry_a_id])
        _click_and_wait(player, "#report-link")
        player.fill("input[name=score_a]", "7")
        player.fill("input[name=score_b]", "4")
        _click_and_wait(player, "form.result button[type=submit]")
        player.goto(links[match.entry_b_id])
        _click_and_wait(player, "#report-link")
        _click_and_wait(player, "ul.reports button.big")
        player.close()
    for match in by_link:
        match.refresh_from_db()
        assert (match.result_status, match.score_a, match.score_b) == (ResultStatus.CONFIRMED, 7, 4)

    # 6. The other six from the score sheets, in the results grid; the round closes by itself.
    page.goto(f"{base}/t/{t.slug}/manage/round/{round1.pk}/")
    page.click("a:has-text('Results grid')")
    for match in round1.matches.order_by("table")[2:]:
        page.fill(f"#m{match.pk}-a", "2")
        page.fill(f"#m{match.pk}-b", "7")
    _click_and_wait(page, "button:has-text('Save the results')")
    assert "6 saved" in page.inner_text("main")
    round1.refresh_from_db()
    assert round1.status == RoundStatus.FINISHED
    assert not Match.objects.filter(round=round1).exclude(result_status=ResultStatus.CONFIRMED).exists()
    t.refresh_from_db()
    assert t.status == "in_progress"

    # 7. Round 2: paired from the standings after round 1.
    page.click("nav.tabs >> text=Rounds")
    _click_and_wait(page, "main form[action$='/generate/'] button[type=submit]")
    round2 = Round.objects.get(tournament=t, number=2)
    assert round2.matches.count() == 8
    winners = {m.entry_a_id if m.score_a > m.score_b else m.entry_b_id for m in round1.matches.all()}
    for match in round2.matches.all():  # the Swiss pairs winners with winners
        assert (match.entry_a_id in winners) == (match.entry_b_id in winners)

    # 8. Export Excel: built in the background, then downloaded.
    page.goto(f"{base}/t/{t.slug}/export/")
    _click_and_wait(page, "button:has-text('Build the Excel workbook')")
    page.wait_for_selector("#export-link[href*='download']", state="attached")
    with page.expect_download(timeout=TIMEOUT) as download_info:
        page.click("#export-link")
    workbook = openpyxl.load_workbook(io.BytesIO(download_info.value.path().read_bytes()))
    text = " ".join(
        str(cell.value) for sheet in workbook.worksheets for row in sheet.iter_rows() for cell in row
        if cell.value is not None
    )
    assert "Семёнов" in text

    assert not [url for url in visited if "/admin/" in url], "the journey must not need the back office"
    context.close()
