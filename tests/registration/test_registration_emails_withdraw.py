"""Issue 36: every registration email says where and when (link, date, venue), how to
withdraw (the applicant's signed page) and, once entered, how to stop emails; a withdrawal
is confirmed by email. Through a real local SMTP server (tests/smtp.py)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.smtp import Inbox, smtp_server
from tournaments.models import EntryStatus, Registration, RegistrationStatus
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8671"
FORM = {
    "last_name": "Петров", "first_name": "Пётр", "email": "petrov@example.org",
    "category": "4", "rating": "1500",
}  # fmt: skip


def register(client, event, lang="ru"):
    return client.post(reverse("register", kwargs={"slug": event.slug}), FORM, HTTP_ACCEPT_LANGUAGE=lang)


def application_link(body: str) -> str:
    return re.search(re.escape(SITE) + r"(/t/\S+/register/application/\S+/)", body).group(1)


def event_of(**options):
    return TournamentFactory(
        name="Кубок Зарика", slug="kubok", starts_on=dt.date(2026, 12, 5), venue="Клуб «Зарик», Пермь",
        registration_open=True, **options,
    )  # fmt: skip


@override_settings(SITE_URL=SITE)
def test_the_received_email_names_the_event_date_venue_and_the_way_to_withdraw(client):
    event = event_of(public=True, registration_approval=True)
    with smtp_server() as inbox:
        register(client, event)
    body = Inbox.body(inbox.to("petrov@example.org")[0])
    assert f"{SITE}/t/kubok/" in body  # the event's page
    assert "Клуб «Зарик», Пермь" in body and "2026" in body  # venue and date
    assert application_link(body)
    assert "/notifications/" not in body  # no player yet: the opt-out is the application's own (…/emails/)


@override_settings(SITE_URL=SITE)
def test_an_entered_applicant_gets_an_unsubscribe_link_and_a_hidden_event_links_to_its_form(client):
    event = event_of(public=False, registration_approval=False)
    with smtp_server() as inbox:
        register(client, event)
    body = Inbox.body(inbox.to("petrov@example.org")[0])
    assert f"{SITE}/t/kubok/register/" in body  # the event's pages are a 404 for them
    assert re.search(re.escape(SITE) + r"/notifications/\S+/", body)


@override_settings(SITE_URL=SITE)
def test_the_applicant_withdraws_from_their_link_and_gets_a_confirmation(client):
    event = event_of(public=True, registration_approval=False, entry_limit=1)
    with smtp_server() as inbox:
        register(client, event)
        client.post(reverse("register", kwargs={"slug": "kubok"}), {**FORM, "last_name": "Сидоров", "email": "s@example.org"})
    link = application_link(Inbox.body(inbox.to("petrov@example.org")[0]))
    page = client.get(link)
    assert page.status_code == 200 and 'id="withdraw-application"' in page.content.decode()
    with smtp_server() as inbox:
        client.post(link, {"action": "withdraw"})  # asks first (issue 49)
        client.post(link, {"action": "withdraw_confirmed"})
    reg = Registration.objects.get(email="petrov@example.org")
    assert reg.status == RegistrationStatus.CANCELLED and reg.entry.status == EntryStatus.WITHDRAWN
    [confirmation] = inbox.to("petrov@example.org")
    assert "Заявка отозвана" in confirmation["Subject"]
    assert "отозвана" in Inbox.body(confirmation)
    assert not inbox.to("s@example.org")  # the place stays hers for the grace (issue 49) ...
    with smtp_server() as inbox:
        registration.settle_withdrawals(event, now=reg.undo_until)  # ... and is offered when it ends
    assert inbox.to("s@example.org")  # the freed place went to the waiting list
    assert 'id="withdraw-application"' not in client.get(link).content.decode()  # nothing left to withdraw


def test_a_forged_or_foreign_application_link_is_a_404(client):
    event = event_of(public=True)
    TournamentFactory(slug="other", registration_open=True)
    with smtp_server() as inbox:
        client.post(reverse("register", kwargs={"slug": "other"}), FORM)
    token = re.search(r"/register/application/(\S+)/", Inbox.body(inbox.messages[0])).group(1)
    assert client.get(reverse("registration-application", kwargs={"slug": "other", "token": token})).status_code == 200
    assert client.get(reverse("registration-application", kwargs={"slug": event.slug, "token": token})).status_code == 404
    assert client.get(reverse("registration-application", kwargs={"slug": "other", "token": "1:forged"})).status_code == 404


@override_settings(SITE_URL=SITE)
def test_withdrawing_asks_first_and_nothing_moves_until_the_applicant_confirms(client):
    """Regression (issue 49): one tap withdrew the application and gave the place to the waiting
    list at once, with an email to the next person; now it asks, and "keep" changes nothing."""
    event = event_of(public=True, registration_approval=False, entry_limit=1)
    with smtp_server() as inbox:
        register(client, event)
        client.post(reverse("register", kwargs={"slug": "kubok"}), {**FORM, "last_name": "Сидоров", "email": "s@example.org"})
    link = application_link(Inbox.body(inbox.to("petrov@example.org")[0]))
    with smtp_server() as inbox:
        page = client.post(link, {"action": "withdraw"}, HTTP_ACCEPT_LANGUAGE="ru")
    body = page.content.decode()
    assert page.status_code == 200 and 'id="confirm-withdrawal"' in body and "Отозвать заявку?" in body
    assert "следующему в листе ожидания" in body and 'id="keep-application"' in body
    reg = Registration.objects.get(email="petrov@example.org")
    assert reg.status == RegistrationStatus.APPROVED and reg.entry.status != EntryStatus.WITHDRAWN
    assert not inbox.messages  # nobody was told anything
    english = client.post(link, {"action": "withdraw"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Withdraw your application?" in english and "You are entered: your entry is withdrawn too." in english
    assert Registration.objects.get(email="s@example.org").status == RegistrationStatus.WAITLISTED
