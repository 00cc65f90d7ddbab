"""Issue 36's "done when": a visitor registers on a phone under a stored player's name and a new
email, and the stored player — their email, entries, profile and account — is untouched until
the organiser confirms the match in the approval list, where the candidate is shown side by side.

The demo's case: «Кузнецов Алексей» of the host club, whose account is ``player5``. A stranger
typing that name and club was attached to the player (the account then landed on the stranger's
match) and overwrote the player's email. Refusing, or approving as a new player, must leave the
stored player alone too; only "Approve as this player" enters them, and even then their record
(the email) is theirs, not the application's.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Membership, Player
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OfficialFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.smtp import Inbox, smtp_server
from tournaments.models import OfficialRole, Registration, RegistrationStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000
CLUB = "Нарды-Клуб «Зарик»"


def _state(player: Player) -> tuple:
    """Everything a registration must not change on a stored player."""
    player.refresh_from_db()
    return (
        player.last_name, player.first_name, player.email, player.user_id, player.language,
        player.rating, player.email_notifications, sorted(player.entries.values_list("pk", flat=True)),
    )  # fmt: skip


def _register(chromium, base: str, email: str) -> None:
    """A visitor on a Russian phone applies as «Кузнецов Алексей» of the host club."""
    ctx = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
    )  # fmt: skip
    page = ctx.new_page()
    page.goto(f"{base}/t/autumn/register/")
    page.fill("#id_last_name", "Кузнецов")
    page.fill("#id_first_name", "Алексей")
    page.fill("#id_email", email)
    page.fill("#id_club_name", CLUB)
    page.select_option("#id_category", "7")
    page.fill("#id_rating", "1781")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    outcome = page.locator("#registration-outcome").inner_text()
    assert "Заявка принята" in outcome or "организатор" in outcome, outcome  # waits, not entered
    ctx.close()


def test_a_namesake_registering_on_a_phone_leaves_the_stored_player_alone_until_the_organiser_confirms(
    chromium, live_server
):
    club = ClubFactory(name=CLUB)
    account = get_user_model().objects.create_user("player5", password="zarik-player")
    known = PlayerFactory(
        last_name="Кузнецов", first_name="Алексей", last_name_latin="Kuznetsov", first_name_latin="Alexey",
        email="alexey.k@club.example", user=account, rating=1781,
    )  # fmt: skip
    Membership.objects.create(player=known, club=club, started_on=dt.date(2024, 1, 1))
    EntryFactory(tournament=TournamentFactory(slug="summer", name="Летний кубок", public=True), player=known)
    # no approval needed: the worst case, where a name match used to be entered at once
    event = TournamentFactory(
        slug="autumn", name="Осенний кубок", public=True, registration_open=True, registration_approval=False
    )
    organiser = UserFactory(username="boss")
    OfficialFactory(tournament=event, user=organiser, role=OfficialRole.ORGANISER)
    before = _state(known)
    base = live_server.url

    with smtp_server() as inbox:
        for email in ("first@example.org", "second@example.org", "third@example.org"):
            _register(chromium, base, email)
        assert _state(known) == before
        assert not event.entries.exists()
        for email in ("first@example.org", "second@example.org", "third@example.org"):
            assert all("/p/" not in Inbox.body(m) for m in inbox.to(email))  # no private link yet
        assert inbox.to("alexey.k@club.example") == []

        # the player's own account sees nothing of the stranger's application
        player = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      extra_http_headers={"Accept-Language": "en"})
        player_page = player.new_page()
        player_page.goto(f"{base}/players/{known.pk}/")
        assert "Летний кубок" in player_page.content() and "Осенний кубок" not in player_page.content()
        player.close()

        # the organiser, on a phone, sees each applicant with the candidate side by side
        ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB",
                                   extra_http_headers={"Accept-Language": "en"})
        page = ctx.new_page()
        page.goto(f"{base}/accounts/login/?next=/t/autumn/manage/registrations/")
        page.fill("input[name=username]", "boss")
        page.fill("input[name=password]", "zarik-test")
        with page.expect_navigation(timeout=TIMEOUT):
            page.click("main form button[type=submit]")
        regs = {r.email: r for r in Registration.objects.filter(tournament=event)}
        assert {r.status for r in regs.values()} == {RegistrationStatus.PENDING}

        def row(email: str):
            return page.locator(f"#registration-{regs[email].pk}")

        first = row("first@example.org")
        assert "first@example.org" in first.inner_text()
        candidates = first.locator(".identity-candidates")
        assert "Is Кузнецов Алексей one of these players?" in candidates.locator("caption").inner_text()
        proposed = candidates.locator("tbody tr", has_text=f"#{known.pk}")
        why = proposed.inner_text()
        assert "Kuznetsov Alexey" in why or "Alexey Kuznetsov" in why
        assert CLUB in why and "same name" in why and "another email" in why and "same club" in why
        assert "alexey.k@club.example" not in page.content()  # the stored address is never shown

        # refusing the first applicant: the stored player is untouched
        with page.expect_navigation(timeout=TIMEOUT):
            first.get_by_role("button", name="Refuse").click()
        assert _state(known) == before

        # approving the second as a new player: a second Кузнецов, the stored one untouched
        with page.expect_navigation(timeout=TIMEOUT):
            row("second@example.org").get_by_role("button", name="Approve as a new player").click()
        assert "Application approved" in page.locator("main").inner_text()
        assert _state(known) == before
        newcomer = event.entries.get().player
        assert newcomer != known and newcomer.email == "second@example.org"
        assert Player.objects.filter(last_name="Кузнецов").count() == 2

        # only the organiser's confirmation enters the stored player, whose record stays theirs
        third = row("third@example.org")
        with page.expect_navigation(timeout=TIMEOUT):
            third.locator(".identity-candidates tbody tr", has_text=f"#{known.pk}").get_by_role(
                "button", name="Approve as this player"
            ).click()
        assert event.entries.filter(player=known).exists()
        known.refresh_from_db()
        assert (known.email, known.user_id) == ("alexey.k@club.example", account.pk)
        ctx.close()


def test_a_refused_phone_form_focuses_its_summary_and_a_decimal_comma_rating_is_kept(chromium, live_server):
    """Issue 36, phone forms: the error is not below the fold, and «1612,5» in a Russian Chromium is 1612.5."""
    TournamentFactory(slug="winter", public=True, registration_open=True, registration_approval=True)
    ctx = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU",
        extra_http_headers={"Accept-Language": "ru"},
    )  # fmt: skip
    page = ctx.new_page()
    page.goto(f"{live_server.url}/t/winter/register/")
    page.fill("#id_last_name", "Петров")
    page.fill("#id_first_name", "Пётр")
    page.fill("#id_email", "petrov@example.org")
    page.fill("#id_rating", "полторы тысячи")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'error-summary'", timeout=TIMEOUT)
    box = page.locator("#error-summary").bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"]  # on screen, not below the fold
    assert page.input_value("#id_last_name") == "Петров"  # what was typed stays
    page.fill("#id_rating", "1612,5")
    with smtp_server(), page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    assert Registration.objects.get(email="petrov@example.org").rating == 1612.5
    ctx.close()
