"""The entry limit holds when the organiser approves from the waiting list, and an
applicant on the waiting list is told their place in it (issue 36)."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from tests.factories import EntryFactory, OfficialFactory, PlayerFactory, TournamentFactory
from tests.smtp import Inbox, smtp_server
from tournaments.models import AuditEntry, OfficialRole, Registration, RegistrationStatus
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Семёнов",
    "first_name": "Иван",
    "last_name_latin": "Semenov",
    "first_name_latin": "Ivan",
    "email": "ivan@example.org",
    "club_name": "Пермь",
    "category": 4,
    "rating": None,
}


@pytest.fixture
def full_event():
    """One place, taken by an entry; one applicant waiting."""
    event = TournamentFactory(registration_open=True, registration_approval=True, entry_limit=1)
    EntryFactory(tournament=event)
    return event


@pytest.fixture
def organiser(full_event):
    return OfficialFactory(tournament=full_event, role=OfficialRole.ORGANISER).user


def waiting(event) -> Registration:
    reg = registration.apply(event, FORM).registration
    assert reg.status == RegistrationStatus.WAITLISTED
    return reg


def test_approve_from_the_waiting_list_of_a_full_event_is_refused(full_event, organiser):
    reg = waiting(full_event)
    with pytest.raises(registration.RegistrationRefused) as refused:
        registration.approve(reg, organiser)
    problem = refused.value.problem
    assert problem.code == "registration.full"
    assert "1 of 1" in problem.message("en") and "1 из 1" in problem.message("ru")
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.WAITLISTED and reg.entry is None
    assert registration.places_taken(full_event) == 1


def test_approve_over_the_limit_with_a_reason_is_audited(full_event, organiser):
    reg = waiting(full_event)
    registration.approve(reg, organiser, over_limit_reason="  чемпион прошлого года ")
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED and reg.entry is not None
    audit = AuditEntry.objects.get(action="registration.approve")
    assert audit.reason == "чемпион прошлого года"
    assert registration.places_taken(full_event) == 2


def test_approve_page_of_a_full_event_says_why_and_asks_for_a_reason(client, full_event, organiser):
    reg = waiting(full_event)
    client.force_login(organiser)
    manage = reverse("manage-registrations", kwargs={"slug": full_event.slug})
    html = client.get(manage).content.decode()
    assert f'for="over-limit-{reg.pk}"' in html and 'name="over_limit_reason"' in html
    url = reverse(
        "manage-registration-decide",
        kwargs={"slug": full_event.slug, "registration_id": reg.pk, "action": "approve"},
    )
    page = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    said = [str(m) for m in page.context["messages"]]
    assert any("1 of 1" in m or "1 из 1" in m for m in said)
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.WAITLISTED
    client.post(url, {"over_limit_reason": "sponsor's guest"})
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED


def test_a_waiting_namesake_of_a_full_event_is_approved_as_a_candidate_only_with_a_reason(
    client, full_event, organiser
):
    """The candidates' own "Approve as…" buttons ask for the reason too (they skipped it)."""
    known = PlayerFactory(last_name="Семёнов", first_name="Иван", last_name_latin="Semenov", first_name_latin="Ivan")
    reg = waiting(full_event)
    client.force_login(organiser)
    html = lxml.html.fromstring(
        client.get(reverse("manage-registrations", kwargs={"slug": full_event.slug}), HTTP_ACCEPT_LANGUAGE="en").content
    )
    forms = html.xpath(f"//tr[@id='registration-{reg.pk}']//form[.//input[@name='player']]")
    assert len(forms) == 2  # this player, a new player
    for form in forms:
        [reason] = form.xpath(".//input[@name='over_limit_reason']")
        assert reason.get("required") is not None
        assert "reason to go over the limit" in reason.getparent().text_content()
    url = forms[0].get("action")
    client.post(url, {"player": known.pk})
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.WAITLISTED
    client.post(url, {"player": known.pk, "over_limit_reason": "чемпион"})
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED and reg.entry.player == known


def test_a_pending_application_holds_its_place_and_needs_no_reason(organiser):
    event = TournamentFactory(registration_open=True, registration_approval=True, entry_limit=1)
    reg = registration.apply(event, FORM).registration
    assert reg.status == RegistrationStatus.PENDING
    OfficialFactory(tournament=event, role=OfficialRole.ORGANISER, user=organiser)
    registration.approve(reg, organiser)
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED
    assert AuditEntry.objects.get(action="registration.approve").reason == ""


def test_waitlisted_visitor_sees_their_position_on_the_page_and_in_the_email(client, full_event):
    waiting(full_event)  # number 1
    with smtp_server() as inbox:
        page = client.post(
            reverse("register", kwargs={"slug": full_event.slug}),
            {**FORM, "last_name": "Петров", "email": "petrov@example.org", "rating": ""},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert page.context["position"] == 2
    assert "You are number 2 on the waiting list." in page.content.decode()
    [mail] = inbox.to("petrov@example.org")
    body = Inbox.body(mail)
    assert "You are number 2 on the waiting list." in body
    assert "Ваш номер в листе ожидания: 2." in body  # and in the other language


def test_waitlist_position_moves_up_when_the_first_is_offered_a_place(full_event, organiser):
    first, second = waiting(full_event), registration.apply(
        full_event, {**FORM, "last_name": "Петров", "email": "p@example.org"}
    ).registration
    assert (registration.waitlist_position(first), registration.waitlist_position(second)) == (1, 2)
    full_event.entries.get().delete()
    registration.offer_free_places(full_event, organiser)
    first.refresh_from_db(), second.refresh_from_db()
    assert registration.waitlist_position(first) is None  # offered: pending, off the list
    assert registration.waitlist_position(second) == 1


def test_a_limit_lowered_below_the_places_taken_warns_and_a_pending_approval_then_asks_why(client, organiser):
    """Regression (issue 49): "Places taken: 6 of 4" with no warning, then a pending application
    approved over the limit with no reason asked."""
    event = TournamentFactory(registration_open=True, registration_approval=True, entry_limit=None)
    OfficialFactory(tournament=event, role=OfficialRole.ORGANISER, user=organiser)
    EntryFactory.create_batch(2, tournament=event)
    reg = registration.apply(event, FORM).registration
    assert reg.status == RegistrationStatus.PENDING
    client.force_login(organiser)
    options = reverse("manage-registration-options", kwargs={"slug": event.slug})
    page = client.post(options, {"registration_open": "on", "registration_approval": "on", "entry_limit": 2},
                       follow=True, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    said = " ".join(str(m) for m in page.context["messages"])
    assert "The limit (2) is below the places already taken (3): nobody is removed" in said
    assert 'id="over-limit"' in page.content.decode()
    russian = client.get(reverse("manage-registrations", kwargs={"slug": event.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Лимит (2) меньше уже занятых мест (3)" in russian.content.decode()
    with pytest.raises(registration.RegistrationRefused) as refused:
        registration.approve(reg, organiser)
    assert refused.value.problem.code == "registration.full_pending"
    assert "2 of 2" in refused.value.problem.message("en") and "2 из 2" in refused.value.problem.message("ru")
    html = lxml.html.fromstring(russian.content)
    assert html.xpath(f"//tr[@id='registration-{reg.pk}']//input[@name='over_limit_reason'][@required]")
    registration.approve(reg, organiser, over_limit_reason="судья турнира")
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.APPROVED


def test_the_public_form_says_how_many_places_are_left_or_that_the_event_is_full(client, full_event):
    """Regression (issue 49): the applicant learnt the event was full only after filling in the form."""
    url = reverse("register", kwargs={"slug": full_event.slug})
    full = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The event is full: an application now goes to the waiting list" in full
    assert "Мест нет" in client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    full_event.entry_limit = 4
    full_event.save()
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Осталось 3 места." in html
    assert "3 places left." in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
