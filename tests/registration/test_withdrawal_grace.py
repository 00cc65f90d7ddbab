"""A withdrawal forgives a slip (issue 49): for ``WITHDRAWAL_GRACE`` (10 minutes) the applicant
may take it back and the place stays theirs; the waiting list is offered the place, with its
email, only when the grace ends — by a job scheduled then (a timer thread in the embedded
set-up, a Celery task with a broker), or at the next registration page read if that job was lost.
Through a real local SMTP server (tests/smtp.py)."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tests.factories import RoundFactory, TournamentFactory, UserFactory
from tests.smtp import Inbox, smtp_server
from tournaments.models import AuditEntry, EntryStatus, Registration, RegistrationStatus
from tournaments.registration import services as registration

SITE = "http://127.0.0.1:8672"
FORM = {"last_name": "Петрова", "first_name": "Анна", "email": "anna@example.org", "category": "4"}
NEXT = {**FORM, "last_name": "Сидоров", "first_name": "Иван", "email": "next@example.org"}


def _event(**options):
    return TournamentFactory(
        name="Клубный вечер", slug="vecher", starts_on=dt.date(2026, 12, 5), public=True,
        registration_open=True, registration_approval=False, entry_limit=1, **options,
    )  # fmt: skip


def _apply_both(client) -> str:
    """Anna takes the only place, Ivan goes on the waiting list; Anna's application link."""
    with smtp_server() as inbox:
        client.post(reverse("register", kwargs={"slug": "vecher"}), FORM)
        client.post(reverse("register", kwargs={"slug": "vecher"}), NEXT)
    body = Inbox.body(inbox.to("anna@example.org")[0])
    return re.search(re.escape(SITE) + r"(/t/\S+/register/application/\S+/)", body).group(1)


def _withdraw(client, link: str, lang: str = "ru"):
    client.post(link, {"action": "withdraw"}, HTTP_ACCEPT_LANGUAGE=lang)
    return client.post(link, {"action": "withdraw_confirmed"}, HTTP_ACCEPT_LANGUAGE=lang, follow=True)


@pytest.mark.django_db
@override_settings(SITE_URL=SITE)
def test_the_place_stays_the_applicants_for_the_grace_and_taking_it_back_restores_everything(client):
    event = _event()
    link = _apply_both(client)
    confirm = client.post(link, {"action": "withdraw"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "For 10 minutes you can take it back on this page" in confirm
    with smtp_server() as inbox:
        page = _withdraw(client, link)
    anna = Registration.objects.get(email="anna@example.org")
    assert anna.status == RegistrationStatus.CANCELLED and anna.entry.status == EntryStatus.WITHDRAWN
    assert anna.undo_until is not None and anna.withdrawn_from == EntryStatus.REGISTERED
    assert abs((anna.undo_until - timezone.now()) - registration.WITHDRAWAL_GRACE) < dt.timedelta(seconds=30)
    [mail] = inbox.messages  # only Anna hears: the confirmation, with the way back
    assert mail["To"] == "anna@example.org"
    body = Inbox.body(mail)
    assert "вернуть её" in body and "take it back" in body and link in body
    assert 'id="take-back-withdrawal"' in page.content.decode()
    assert registration.places_left(event) == 0  # held for her: a newcomer would wait
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.WAITLISTED
    registration.settle_withdrawals(event)  # a read within the grace offers nothing
    organiser = client.__class__()
    organiser.force_login(UserFactory(is_superuser=True, is_staff=True, username="desk"))
    desk = organiser.get(reverse("manage-registrations", kwargs={"slug": event.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "заявку можно вернуть до" in desk.content.decode()  # the organiser sees why the place is held
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.WAITLISTED

    with smtp_server() as inbox:
        back = client.post(link, {"action": "take_back"}, HTTP_ACCEPT_LANGUAGE="ru", follow=True)
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.APPROVED and anna.entry.status == EntryStatus.REGISTERED
    assert anna.undo_until is None and not inbox.messages  # nobody was told anything
    assert "Отзыв заявки отменён" in back.content.decode()
    assert AuditEntry.objects.filter(action="registration.take_back", object_id=str(anna.pk)).exists()
    registration.settle_withdrawals(event, now=timezone.now() + 2 * registration.WITHDRAWAL_GRACE)
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.WAITLISTED


@pytest.mark.django_db
@override_settings(SITE_URL=SITE)
def test_when_the_grace_ends_the_next_person_is_offered_the_place_and_it_cannot_be_taken_back(client):
    event = _event()
    link = _apply_both(client)
    _withdraw(client, link)
    later = timezone.now() + registration.WITHDRAWAL_GRACE + dt.timedelta(seconds=1)
    with smtp_server() as inbox:
        registration.settle_withdrawals(event, now=later)  # what the job does when the grace ends
    nxt = Registration.objects.get(email="next@example.org")
    assert nxt.status == RegistrationStatus.APPROVED and nxt.entry.status == EntryStatus.REGISTERED
    assert inbox.to("next@example.org") and not inbox.to("anna@example.org")
    anna = Registration.objects.get(email="anna@example.org")
    assert anna.undo_until is None and anna.withdrawn_from == EntryStatus.REGISTERED  # kept: what she had
    assert not registration.can_take_back(anna)
    refused = client.post(link, {"action": "take_back"}, HTTP_ACCEPT_LANGUAGE="en", follow=True).content.decode()
    assert "that time is over" in refused
    assert Registration.objects.get(pk=anna.pk).status == RegistrationStatus.CANCELLED


@pytest.mark.django_db
@override_settings(SITE_URL=SITE)
def test_a_grace_whose_job_was_lost_is_settled_by_the_next_registration_page(client):
    event = _event()
    link = _apply_both(client)
    _withdraw(client, link)
    Registration.objects.filter(email="anna@example.org").update(undo_until=timezone.now() - dt.timedelta(seconds=1))
    with smtp_server() as inbox:
        page = client.get(reverse("register", kwargs={"slug": event.slug}))
    assert page.status_code == 200
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.APPROVED
    assert inbox.to("next@example.org")


@pytest.mark.django_db
def test_the_organisers_cancellation_and_a_withdrawal_after_round_one_have_no_grace(admin_user):
    event = _event()
    first = registration.apply(event, {**FORM, "category": 4}).registration
    second = registration.apply(event, {**NEXT, "category": 4}).registration
    registration.cancel(first, admin_user, reason="asked by phone")
    first.refresh_from_db()
    assert first.undo_until is None and not registration.can_take_back(first)
    assert Registration.objects.get(pk=second.pk).status == RegistrationStatus.APPROVED  # offered at once
    RoundFactory(tournament=event, number=1)  # round 1 is out
    registration.cancel(second, None)
    second.refresh_from_db()
    assert second.undo_until is None and not registration.can_take_back(second)


@pytest.mark.django_db(transaction=True)
@override_settings(SITE_URL=SITE)
def test_the_embedded_runner_offers_the_place_when_the_grace_ends(client, settings, monkeypatch):
    """No broker (``make run``): a timer thread in the web process ends the grace."""
    settings.WITHDRAWAL_GRACE_TIMER = True
    monkeypatch.setattr(registration, "WITHDRAWAL_GRACE", dt.timedelta(seconds=1))
    _event()
    link = _apply_both(client)
    with smtp_server() as inbox:
        _withdraw(client, link)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not inbox.to("next@example.org"):
            time.sleep(0.2)
        assert inbox.to("next@example.org"), "the place was not offered when the grace ended"
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.APPROVED


@pytest.mark.celery_worker
def test_a_real_worker_offers_the_place_when_the_grace_ends(transactional_db, celery_worker_app):
    if connection.vendor != "postgresql":
        pytest.skip("the worker is another process and must see the test database: PostgreSQL only")
    event = _event()
    anna = registration.apply(event, {**FORM, "category": 4}).registration
    registration.apply(event, {**NEXT, "category": 4})
    registration.cancel(anna, None)  # its job is queued with the grace as countdown
    Registration.objects.filter(pk=anna.pk).update(undo_until=timezone.now() - dt.timedelta(seconds=1))
    registration.schedule_settling(event.pk, timezone.now())  # as the countdown ending would
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and Registration.objects.get(email="next@example.org").status != "approved":
        time.sleep(0.2)
    assert Registration.objects.get(email="next@example.org").status == RegistrationStatus.APPROVED
