"""Issue 36: the applicant's own page (the signed link in every registration email).

* until the organiser decides, the applicant corrects what they sent (name spelling, email,
  club, category, rating), by the public form's rules, keeping what they typed on an error,
  in Russian and English;
* an applicant who is never entered (refused, waiting, pending) can stop the emails about
  the application: a link in every email and the one-click ``List-Unsubscribe`` POST a mail
  client sends (RFC 8058, no CSRF token); the choice holds when they are entered later.

Through a real local SMTP server (tests/smtp.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import OfficialFactory, TournamentFactory
from tests.smtp import Inbox, smtp_server
from tournaments.models import AuditEntry, OfficialRole, Registration, RegistrationStatus
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8671"
FORM = {
    "last_name": "Петров", "first_name": "Пётр", "last_name_latin": "", "first_name_latin": "",
    "email": "petrov@example.org", "club_name": "", "category": "4", "rating": "1500",
}  # fmt: skip


@pytest.fixture
def event():
    return TournamentFactory(slug="kubok", registration_open=True, registration_approval=True, entry_limit=1)


@pytest.fixture
def organiser(event):
    return OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user


def register(client, event, lang="ru", **changes):
    return client.post(
        reverse("register", kwargs={"slug": event.slug}), {**FORM, **changes}, HTTP_ACCEPT_LANGUAGE=lang
    )


def page_of(reg: Registration) -> str:
    return reverse("registration-application", kwargs={"slug": reg.tournament.slug, "token": registration.application_token(reg)})


def edit(client, reg, lang="ru", **changes):
    data = {**FORM, "action": "edit", **changes}
    return client.post(page_of(reg), data, HTTP_ACCEPT_LANGUAGE=lang)


def test_a_waiting_applicant_corrects_name_email_club_and_rating(client, event):
    with smtp_server():
        register(client, event, email="first@example.org", last_name="Первый")
        register(client, event)
    reg = Registration.objects.get(email="petrov@example.org")
    assert reg.status == RegistrationStatus.WAITLISTED
    page = client.get(page_of(reg), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="edit-application"' in page and 'value="Петров"' in page  # the form, filled in
    response = edit(
        client, reg, last_name="Петрова", first_name="Полина", email="polina@example.org",
        club_name="Пермь", rating="1612,5", category="5",
    )  # fmt: skip
    assert response.status_code == 302
    reg.refresh_from_db()
    assert (reg.last_name, reg.first_name, reg.email, reg.club_name, reg.rating, reg.category) == (
        "Петрова", "Полина", "polina@example.org", "Пермь", 1612.5, 5,
    )  # fmt: skip
    assert reg.status == RegistrationStatus.WAITLISTED and registration.waitlist_position(reg) == 1
    assert AuditEntry.objects.filter(action="registration.edit").exists()
    assert "Заявка изменена" in client.get(page_of(reg), HTTP_ACCEPT_LANGUAGE="ru").content.decode()


@pytest.mark.parametrize(
    ("lang", "summary", "message"),
    [
        ("en", "The change was not saved: 1 thing to correct", "Enter a valid email address."),
        ("ru", "Изменения не сохранены: исправьте 1 поле", "Введите правильный адрес электронной почты."),
    ],
)
def test_a_wrong_correction_keeps_what_was_typed_and_says_why(client, event, lang, summary, message):
    with smtp_server():
        register(client, event)
    reg = Registration.objects.get()
    page = edit(client, reg, lang, last_name="Петровский", email="not-an-email").content.decode()
    assert summary in page and message in page
    assert 'value="Петровский"' in page and 'value="not-an-email"' in page
    reg.refresh_from_db()
    assert (reg.last_name, reg.email) == ("Петров", "petrov@example.org")


def test_a_correction_to_another_applicants_email_or_a_refused_category_is_a_field_error(client, event):
    event.registration_categories = [3, 4]
    event.save()
    with smtp_server():
        register(client, event, email="other@example.org", last_name="Другой")
        register(client, event)
    reg = Registration.objects.get(email="petrov@example.org")
    page = edit(client, reg, "en", email="OTHER@example.org", last_name="Петровъ").content.decode()
    assert "one email, one applicant" in page and 'value="Петровъ"' in page
    page = edit(client, reg, "en", category="7").content.decode()
    assert "Category 7 may not register" in page
    reg.refresh_from_db()
    assert (reg.email, reg.last_name, reg.category) == ("petrov@example.org", "Петров", 4)


def test_a_decided_application_can_no_longer_be_changed(client, event, organiser):
    with smtp_server():
        register(client, event)
        reg = Registration.objects.get()
        registration.approve(reg, organiser)
    page = client.get(page_of(reg), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="edit-application"' not in page
    page = edit(client, reg, "en", last_name="Чужой").content.decode()
    assert "can no longer be changed" in page
    reg.refresh_from_db()
    assert reg.last_name == "Петров" and reg.entry.player.last_name == "Петров"


def _unsubscribe_header(mail) -> str:
    return mail["List-Unsubscribe"].strip().strip("<>")


@override_settings(SITE_URL=SITE)
def test_a_waiting_applicant_stops_the_emails_with_one_click_and_is_not_written_to(client, event, organiser):
    with smtp_server() as inbox:
        register(client, event, email="first@example.org", last_name="Первый")
        register(client, event)
    [waiting] = inbox.to("petrov@example.org")
    url = _unsubscribe_header(waiting)
    assert url.startswith(SITE + "/t/kubok/register/application/") and url.endswith("/emails/")
    assert waiting["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in Inbox.body(waiting)  # the footer link too
    mail_client = Client(enforce_csrf_checks=True)  # a mail client's one-click POST has no CSRF token
    response = mail_client.post(url.removeprefix(SITE), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    reg = Registration.objects.get(email="petrov@example.org")
    assert reg.email_notifications is False
    # a place frees up: it is offered, but the applicant asked for no emails
    with smtp_server() as inbox:
        registration.refuse(Registration.objects.get(email="first@example.org"), organiser)
    reg.refresh_from_db()
    assert reg.status == RegistrationStatus.PENDING
    assert inbox.to("petrov@example.org") == []
    # entered later as a new player: the player starts with emails off
    registration.approve(reg, organiser)
    reg.refresh_from_db()
    assert reg.entry.player.email_notifications is False


@override_settings(SITE_URL=SITE)
def test_a_refused_applicant_finds_the_switch_in_the_refusal_and_can_turn_it_back_on(client, event, organiser):
    with smtp_server() as inbox:
        register(client, event)
        registration.refuse(Registration.objects.get(), organiser, "мест нет")
    refusal = inbox.to("petrov@example.org")[-1]
    link = re.search(re.escape(SITE) + r"(/t/kubok/register/application/\S+/emails/)", Inbox.body(refusal)).group(1)
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="notify-off"' in page
    page = client.post(link, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "больше не будете получать" in page
    assert Registration.objects.get().email_notifications is False
    client.post(link, {"on": "1"})
    assert Registration.objects.get().email_notifications is True


def test_an_entered_applicants_unsubscribe_header_is_the_players_opt_out(client, event):
    event.registration_approval = False
    event.entry_limit = None
    event.save()
    with smtp_server() as inbox:
        register(client, event)
    [entered] = inbox.to("petrov@example.org")
    assert "/notifications/" in _unsubscribe_header(entered)


def test_a_forged_emails_link_is_a_404(client, event):
    url = reverse("registration-emails", kwargs={"slug": event.slug, "token": "1:forged"})
    assert client.post(url).status_code == 404


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ["Исправить заявку", "Сохранить изменения", "Отозвать заявку", "Не присылать писем об этой заявке"]),
        ("en", ["Correct your application", "Save the changes", "Withdraw my application", "Stop emails about this application"]),
    ],
)
def test_the_applicants_page_speaks_their_language(client, event, lang, words):
    with smtp_server():
        register(client, event)
    page = client.get(page_of(Registration.objects.get()), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert all(w in page for w in words), [w for w in words if w not in page]
