"""Self-registration: open/closed, deadline, categories, entry limit and the waiting list,
organiser approval and refusal, promotion when a place frees up — with the emails delivered
to a real local SMTP server (aiosmtpd)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Player
from tests.factories import (
    EntryFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tests.smtp import Inbox, smtp_server
from tournaments.access import private_links
from tournaments.entries import status as entry_status
from tournaments.models import (
    AuditEntry,
    EntryStatus,
    OfficialRole,
    Registration,
    RegistrationStatus,
)
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Семёнов",
    "first_name": "Иван",
    "last_name_latin": "Semenov",
    "first_name_latin": "Ivan",
    "email": "ivan@example.org",
    "club_name": "Пермь",
    "category": "4",
    "rating": "1620",
}


@pytest.fixture
def inbox():
    with smtp_server() as box:
        yield box


@pytest.fixture
def event():
    return TournamentFactory(registration_open=True, registration_approval=True)


@pytest.fixture
def organiser(event):
    return OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user


def apply(client, event, lang="ru", **changes):
    data = {**FORM, **changes}
    return client.post(reverse("register", kwargs={"slug": event.slug}), data, HTTP_ACCEPT_LANGUAGE=lang)


def test_an_application_waits_for_the_organiser_and_is_emailed(client, event, inbox):
    response = apply(client, event)
    assert response.status_code == 200
    reg = Registration.objects.get()
    assert (reg.status, reg.entry, reg.language) == (RegistrationStatus.PENDING, None, "ru")
    assert (reg.last_name_latin, reg.category, reg.rating) == ("Semenov", 4, 1620.0)
    assert not event.entries.exists()  # applicants are never paired
    [mail] = inbox.to("ivan@example.org")
    assert "Заявка получена" in mail["Subject"] and "Application received" in mail["Subject"]
    body = Inbox.body(mail)
    assert body.index("Здравствуйте") < body.index("Hello")  # the applicant's language first
    assert AuditEntry.objects.filter(action="registration.apply").exists()


def test_approval_enters_the_player_and_emails_the_private_link(client, event, organiser, inbox):
    apply(client, event, lang="en")
    reg = Registration.objects.get()
    client.force_login(organiser)
    url = reverse("manage-registration-decide", kwargs={"slug": event.slug, "registration_id": reg.pk, "action": "approve"})
    assert client.post(url).status_code == 302
    reg.refresh_from_db()
    entry = reg.entry
    assert reg.status == RegistrationStatus.APPROVED and entry.tournament == event
    assert (entry.player.last_name, entry.player.first_name_latin, entry.player.email) == ("Семёнов", "Ivan", "ivan@example.org")
    assert entry.seed_rating == 1620.0
    mail = inbox.to("ivan@example.org")[-1]
    assert mail["Subject"].strip().startswith("You are entered")
    link = private_links.url_for(entry)
    assert link in Inbox.body(mail)
    assert client.get(link).status_code == 200
    assert AuditEntry.objects.filter(action="registration.approve", user=organiser).exists()


def test_an_existing_player_with_the_same_names_is_proposed_and_reused_when_chosen(client, event, organiser, inbox):
    """Issue 37: a name match is a candidate the organiser confirms, and the stored player is not changed."""
    known = PlayerFactory(last_name="Семёнов", first_name="Иван", email="")
    apply(client, event)
    client.force_login(organiser)
    reg = Registration.objects.get()
    with pytest.raises(registration.RegistrationRefused) as refused:
        registration.approve(reg, organiser)
    assert refused.value.problem.code == "identity.choose"
    registration.approve(reg, organiser, player=known.pk)
    assert Player.objects.filter(last_name="Семёнов").count() == 1
    known.refresh_from_db()
    assert known.email == "" and event.entries.get().player == known


def test_without_approval_the_applicant_is_entered_at_once(client, event, inbox):
    event.registration_approval = False
    event.save()
    response = apply(client, event)
    assert "You are entered" in response.content.decode() or "Вы в списке" in response.content.decode()
    reg = Registration.objects.get()
    assert reg.status == RegistrationStatus.APPROVED and reg.entry is not None
    assert private_links.url_for(reg.entry) in Inbox.body(inbox.to("ivan@example.org")[0])


def test_registration_closed(client, event, inbox):
    event.registration_open = False
    event.save()
    page = client.get(reverse("register", kwargs={"slug": event.slug}), HTTP_ACCEPT_LANGUAGE="en")
    assert "Registration for this tournament is closed." in page.content.decode()
    apply(client, event)
    assert not Registration.objects.exists() and not inbox.messages


def test_after_the_deadline_the_form_refuses_with_the_date(client, event):
    event.registration_deadline = timezone.now() - dt.timedelta(hours=1)
    event.save()
    page = apply(client, event, lang="ru")
    assert "Срок регистрации" in page.content.decode()
    assert not Registration.objects.exists()


def test_a_category_outside_the_allowed_ones_is_a_field_error_keeping_the_input(client, event):
    event.registration_categories = [7, 8, 9]
    event.save()
    page = apply(client, event, lang="en")
    form = page.context["form"]
    assert "category" in form.errors
    assert "Category 4 may not register" in form.errors["category"][0]
    assert 'value="Семёнов"' in page.content.decode()
    assert not Registration.objects.exists()
    assert apply(client, event, category="8").context["registration"].status == RegistrationStatus.PENDING


def test_bad_input_keeps_everything_typed(client, event):
    page = apply(client, event, lang="en", email="not-an-email", last_name_latin="Семёнов")
    assert page.status_code == 200
    assert set(page.context["form"].errors) == {"email", "last_name_latin"}
    assert 'value="Пермь"' in page.content.decode()


def test_above_the_limit_applicants_wait_and_a_freed_place_goes_to_the_first(client, event, organiser, inbox):
    event.entry_limit = 2
    event.save()
    EntryFactory(tournament=event)
    apply(client, event, email="a@example.org")  # pending: the second place
    apply(client, event, email="b@example.org", first_name="Пётр")  # waitlisted first
    apply(client, event, email="c@example.org", first_name="Олег")  # waitlisted second
    a, b, c = Registration.objects.order_by("pk")
    assert [r.status for r in (a, b, c)] == ["pending", "waitlisted", "waitlisted"]
    assert "waiting list" in inbox.to("b@example.org")[0]["Subject"]
    # Refusing the pending one frees its place: the first on the waiting list is offered it.
    registration.refuse(a, organiser, reason="не член клуба")
    b.refresh_from_db(), c.refresh_from_db()
    assert (b.status, c.status) == ("pending", "waitlisted")
    assert "не член клуба" in Inbox.body(inbox.to("a@example.org")[-1])
    assert "place is free" in inbox.to("b@example.org")[-1]["Subject"]
    # Approving B fills the place; an entry withdrawing before round 1 frees one for C.
    registration.approve(b, organiser)
    entry = event.entries.exclude(registration__isnull=False).get()
    entry_status.withdraw(entry, organiser, "ill")
    c.refresh_from_db()
    assert c.status == "pending"
    assert AuditEntry.objects.filter(action="registration.offer").count() == 2


def test_a_cancelled_approved_applicant_frees_the_place(client, event, organiser, inbox):
    event.entry_limit = 1
    event.registration_approval = False
    event.save()
    apply(client, event, email="a@example.org")
    apply(client, event, email="b@example.org", first_name="Пётр", first_name_latin="Petr")
    a, b = Registration.objects.order_by("pk")
    assert (a.status, b.status) == ("approved", "waitlisted")
    registration.cancel(a, organiser)
    a.refresh_from_db(), b.refresh_from_db()
    assert a.entry.status == EntryStatus.WITHDRAWN
    assert b.status == "approved" and b.entry is not None  # no approval needed: entered at once
    assert private_links.url_for(b.entry) in Inbox.body(inbox.to("b@example.org")[-1])


def test_no_place_frees_after_round_one(event, organiser):
    event.entry_limit = 1
    event.save()
    entry = EntryFactory(tournament=event)
    reg = Registration.objects.create(tournament=event, last_name="Поздний", email="l@example.org", status="waitlisted")
    RoundFactory(tournament=event, number=1)
    entry_status.withdraw(entry, organiser)
    reg.refresh_from_db()
    assert reg.status == "waitlisted"


def test_the_same_application_twice_is_refused(client, event, inbox):
    apply(client, event)
    page = apply(client, event, lang="en")
    assert "already in" in page.content.decode()
    assert Registration.objects.count() == 1


def test_the_organiser_page_opens_closes_and_lists_the_waiting_list_in_order(client, event, organiser):
    event.entry_limit = 0
    event.save()
    for name, email in (("Первый", "first@example.org"), ("Второй", "second@example.org")):
        registration.apply(
            event, {**FORM, "last_name": name, "last_name_latin": "", "email": email, "category": 4, "rating": None}
        )  # one email, one applicant
    client.force_login(organiser)
    url = reverse("manage-registrations", kwargs={"slug": event.slug})
    page = client.get(url)
    assert page.status_code == 200
    assert [r.last_name for r in page.context["waitlisted"]] == ["Первый", "Второй"]
    client.post(reverse("manage-registration-open", kwargs={"slug": event.slug}), {"open": "0"})
    event.refresh_from_db()
    assert event.registration_open is False
    assert AuditEntry.objects.filter(action="registration.close").exists()


def test_raising_the_limit_offers_places(client, event, organiser, inbox):
    event.entry_limit = 0
    event.save()
    registration.apply(event, {**FORM, "category": 4, "rating": None})
    client.force_login(organiser)
    response = client.post(
        reverse("manage-registration-options", kwargs={"slug": event.slug}),
        {"registration_open": "on", "entry_limit": "5", "registration_approval": "on",
         "registration_categories": ["4", "5"], "registration_deadline": ""},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.registration_categories == [4, 5]
    assert Registration.objects.get().status == "pending"


def test_bad_options_are_field_errors(client, event, organiser):
    client.force_login(organiser)
    page = client.post(
        reverse("manage-registration-options", kwargs={"slug": event.slug}),
        {"entry_limit": "-3", "registration_deadline": "tomorrow"},
    )
    assert page.status_code == 200
    assert {"entry_limit", "registration_deadline"} <= set(page.context["form"].errors)


def test_only_the_organiser_manages_registrations(client, event):
    referee = OfficialFactory(tournament=event, role=OfficialRole.REFEREE).user
    client.force_login(referee)
    assert client.get(reverse("manage-registrations", kwargs={"slug": event.slug})).status_code == 403
    reg = registration.apply(event, {**FORM, "category": 4, "rating": None}).registration
    url = reverse("manage-registration-decide", kwargs={"slug": event.slug, "registration_id": reg.pk, "action": "approve"})
    assert client.post(url).status_code == 403
    reg.refresh_from_db()
    assert reg.status == "pending"


def test_an_unreachable_mail_server_does_not_lose_the_application(client, event, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2
    page = apply(client, event, lang="en")
    assert page.status_code == 200
    assert Registration.objects.exists()


def test_the_public_overview_invites_entries_while_registration_is_open(client, event, organiser):
    event.public = True
    event.save()
    overview = reverse("tournament", kwargs={"slug": event.slug})
    register = reverse("register", kwargs={"slug": event.slug})
    assert f'href="{register}"' in client.get(overview).content.decode()
    client.force_login(organiser)
    client.post(reverse("manage-registration-open", kwargs={"slug": event.slug}), {"open": "0"})
    client.logout()
    assert f'href="{register}"' not in client.get(overview).content.decode()  # not a stale cached page
    event.refresh_from_db()
    assert event.status == "draft"  # no entries and registration closed: nothing public about it yet
    client.force_login(organiser)
    client.post(reverse("manage-registration-open", kwargs={"slug": event.slug}), {"open": "1"})
    event.refresh_from_db()
    assert event.status == "registration"
