"""Issue 36: emails follow the language a player registered in, greet English readers by
given name first, and every link they carry uses the one site address (any port).

Emails go through a real local SMTP server (tests/smtp.py)."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse

from clubs.models import Player
from clubs.names import greeting_name
from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tests.smtp import Inbox, smtp_server
from tournaments.models import OfficialRole, Registration
from tournaments.registration import services as registration
from tournaments.rounds.pairing_manager.lifecycle import publish_round
from zarik.site import default_site_url

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Smith",
    "first_name": "John",
    "last_name_latin": "",
    "first_name_latin": "",
    "email": "john@example.org",
    "club_name": "",
    "category": "4",
    "rating": "1600",
}

SITE = "http://127.0.0.1:8671"


def links(body: str) -> list[str]:
    return re.findall(r"https?://\S+", body)


def register(client, event, lang: str, **changes):
    data = {**FORM, **changes}
    return client.post(reverse("register", kwargs={"slug": event.slug}), data, HTTP_ACCEPT_LANGUAGE=lang)


@pytest.fixture
def open_event():
    return TournamentFactory(name="Кубок Зарика", slug="kubok", registration_open=True, registration_approval=False)


def test_a_new_player_registered_from_an_english_browser_gets_the_pairing_email_in_english(
    client, open_event, django_capture_on_commit_callbacks
):
    with smtp_server():
        register(client, open_event, "en")
    player = Player.objects.get(email="john@example.org")
    assert player.language == "en"
    rnd = RoundFactory(tournament=open_event, draft=True)
    other = EntryFactory(tournament=open_event, player=PlayerFactory(email=""))
    MatchFactory(round=rnd, table=1, entry_a=player.entries.get(), entry_b=other)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    [mail] = inbox.to("john@example.org")
    assert mail["Subject"].strip() == "Round 1: your pairing · Кубок Зарика"
    assert Inbox.body(mail).startswith("Hello, John Smith!")


def test_a_known_player_keeps_their_record_but_hears_in_the_language_they_registered_in(
    client, open_event, django_capture_on_commit_callbacks
):
    known = PlayerFactory(last_name="Smith", first_name="John", email="john@example.org", language="")
    with smtp_server():
        register(client, open_event, "en")
    known.refresh_from_db()
    assert known.language == ""  # a registration never changes a stored player
    entry = known.entries.get(tournament=open_event)
    assert Registration.objects.get(entry=entry).language == "en"
    rnd = RoundFactory(tournament=open_event, draft=True)
    MatchFactory(round=rnd, table=2, entry_a=entry, entry_b=EntryFactory(tournament=open_event))
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    [mail] = inbox.to("john@example.org")
    assert mail["Subject"].strip().startswith("Round 1: your pairing")


def test_english_greeting_puts_the_latin_given_name_first_and_russian_keeps_the_record_order(
    client, open_event
):
    with smtp_server() as inbox:
        register(
            client, open_event, "en", last_name="Семёнов", first_name="Иван",
            last_name_latin="Semenov", first_name_latin="Ivan", email="ivan@example.org",
        )
    body = Inbox.body(inbox.to("ivan@example.org")[0])
    assert "Hello, Ivan Semenov!" in body
    assert "Здравствуйте, Семёнов Иван!" in body
    assert body.index("Hello") < body.index("Здравствуйте")  # their language first


def test_greeting_name_without_a_latin_spelling_is_transliterated_for_english_readers():
    """Regression (issue 49): "Hello, Артем Федоров!" — an English reader gets Latin letters."""
    assert greeting_name("Федоров", "Артём", "", "", "en") == "Artyom Fedorov"
    assert greeting_name("Петров", "Пётр", "Petrov", "Petr", "ru") == "Петров Пётр"
    assert greeting_name("Petrov", "", "", "", "en") == "Petrov"


def test_a_latin_only_name_keeps_the_given_name_first_in_the_russian_greeting():
    """Regression (issue 49): «Здравствуйте, Smith John!» read as a list, not an address."""
    assert greeting_name("Smith", "John", "", "", "ru") == "John Smith"
    assert greeting_name("Smith", "John", "", "", "en") == "John Smith"


def test_registration_emails_say_their_languages_and_a_refusal_offers_no_correction(client, open_event):
    """Regression (issue 49): no Content-Language; the refusal offered "see it, correct it or withdraw it"."""
    open_event.registration_approval = True
    open_event.save()
    organiser = OfficialFactory(tournament=open_event, role=OfficialRole.ORGANISER).user
    with smtp_server() as inbox:
        register(client, open_event, "en", last_name="Федоров", first_name="Артём", email="artyom@example.org")
    [received] = inbox.to("artyom@example.org")
    assert received["Content-Language"] == "en, ru"
    body = Inbox.body(received)
    assert "Hello, Artyom Fedorov!" in body and "Здравствуйте, Федоров Артём!" in body
    assert "correct it or withdraw it" in body  # an open application can still be changed
    reg = Registration.objects.get(email="artyom@example.org")
    with smtp_server() as inbox:
        registration.refuse(reg, organiser, "the event is for members")
    [refused] = inbox.to("artyom@example.org")
    body = Inbox.body(refused)
    assert refused["Content-Language"] == "en, ru"
    assert "correct it" not in body and "исправить" not in body
    assert "Your application (to see it):" in body and "Ваша заявка (посмотреть):" in body


def test_site_url_defaults_to_the_local_server_on_the_make_run_port():
    assert default_site_url({"PORT": "8671"}) == SITE
    assert default_site_url({}) == "http://127.0.0.1:8000"
    assert default_site_url({"SITE_URL": "https://zarik.example/", "PORT": "8671"}) == "https://zarik.example"


@override_settings(SITE_URL=SITE)
def test_every_link_in_registration_and_notification_emails_carries_the_site_port(
    client, open_event, django_capture_on_commit_callbacks
):
    """Registration emails came with the request's host, notifications with port 8000: one source now."""
    with smtp_server() as inbox:
        register(client, open_event, "en")  # the test client's host is "testserver"
    [welcome] = inbox.to("john@example.org")
    assert links(Inbox.body(welcome)) and all(u.startswith(SITE + "/") for u in links(Inbox.body(welcome)))
    entry = Player.objects.get(email="john@example.org").entries.get()
    rnd = RoundFactory(tournament=open_event, draft=True)
    MatchFactory(round=rnd, table=1, entry_a=entry, entry_b=EntryFactory(tournament=open_event))
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    [pairing] = inbox.to("john@example.org")
    body = Inbox.body(pairing)
    found = links(body)
    assert any("/p/" in u for u in found)  # the private page
    assert any(u.rstrip("/").endswith("/t/kubok") for u in found)  # the tournament
    assert any("/notifications/" in u for u in found)  # the opt-out
    assert all(u.startswith(SITE + "/") for u in found)
    assert pairing["List-Unsubscribe"].strip().strip("<>").startswith(SITE + "/notifications/")


@override_settings(SITE_URL=SITE)
def test_the_organiser_sending_a_private_link_uses_the_site_address_and_the_players_language(client, open_event):
    player = PlayerFactory(
        last_name="Смит", first_name="Джон", last_name_latin="Smith", first_name_latin="John",
        email="john@example.org", language="en",
    )
    entry = EntryFactory(tournament=open_event, player=player)
    client.force_login(OfficialFactory(tournament=open_event, role=OfficialRole.ORGANISER).user)
    with smtp_server() as inbox:
        client.post(reverse("manage-link-email", kwargs={"slug": open_event.slug, "entry_id": entry.pk}))
    body = Inbox.body(inbox.to("john@example.org")[0])
    assert body.startswith("Hello, John Smith!")
    assert links(body) and all(u.startswith(SITE + "/p/") for u in links(body))
