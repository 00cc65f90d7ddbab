"""The links page's copy button, per-player QR, "print all links" and "email all links" (issue 44)."""

from __future__ import annotations

import lxml.html
import pytest
import segno
from django.conf import settings
from django.urls import reverse

from tests.factories import EntryFactory, OfficialFactory, UserFactory
from tests.smtp import Inbox, smtp_server
from tournaments.access import private_links
from tournaments.models import AuditEntry, EntryStatus, OfficialRole

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "copy", "print_all"), [("en", "Copy", "Print all links"), ("ru", "Копировать", "Напечатать все ссылки")])
def test_each_link_has_a_copy_button_and_a_qr_and_the_page_prints_them_all(client, event, organiser, language, copy, print_all):
    entries = [EntryFactory(tournament=event, player__email=f"p{i}@example.org") for i in range(2)]
    client.cookies["django_language"] = language
    html = client.get(reverse("manage-links", kwargs={"slug": event.slug})).content.decode()
    doc = lxml.html.fromstring(html)
    for entry in entries:
        [button] = doc.xpath(f"//button[@data-copy='link-{entry.pk}']")
        assert button.get("type") == "button" and button.text_content().strip() == copy
        assert doc.xpath(f"//input[@id='link-{entry.pk}']")[0].get("value").endswith(private_links.path_for(entry))
        [img] = doc.xpath(f"//tr[@id='entry-{entry.pk}']//details//img")
        assert img.get("alt") and img.get("src") == reverse("manage-link-qr", kwargs={"slug": event.slug, "entry_id": entry.pk})
    assert "<script>" not in html and " onclick=" not in html  # the strict CSP: our static JS only
    [printing] = doc.xpath("//div[@id='all-links']//a")
    assert printing.text_content().strip() == print_all
    cards = client.get(printing.get("href"))
    assert cards.status_code == 200
    for entry in entries:  # one slip per player: the name, the link and its QR code
        assert entry.player.display_name(language) in cards.content.decode()
        assert private_links.path_for(entry) in cards.content.decode()
    assert cards.content.decode().count('class="qr"') >= len(entries)


def test_the_qr_code_carries_the_players_link_and_is_the_organisers(client, event, organiser):
    entry = EntryFactory(tournament=event)
    url = reverse("manage-link-qr", kwargs={"slug": event.slug, "entry_id": entry.pk})
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "image/svg+xml"
    body = answer.content.decode()
    assert body.startswith("<?xml") and 'xmlns="http://www.w3.org/2000/svg"' in body
    expected = segno.make("http://testserver" + private_links.path_for(entry), error="m", micro=False)
    modules = expected.svg_inline(omitsize=True, border=2).split(' d="')[1].split('"')[0]
    assert f' d="{modules}"' in body  # the same modules: the QR opens this player's own page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    other = EntryFactory()  # another event's entry: not on this page
    client.force_login(OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user)
    assert client.get(reverse("manage-link-qr", kwargs={"slug": event.slug, "entry_id": other.pk})).status_code == 404


def test_email_all_links_sends_each_player_their_own_and_says_who_has_no_address(client, event, organiser):
    with_mail = [EntryFactory(tournament=event, player__email=f"p{i}@example.org") for i in range(3)]
    silent = EntryFactory(tournament=event, player__email="")
    gone = EntryFactory(tournament=event, player__email="gone@example.org", status=EntryStatus.WITHDRAWN)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("manage-links", kwargs={"slug": event.slug})).content.decode()
    assert "3 players have an email address" in page
    with smtp_server() as inbox:
        done = client.post(reverse("manage-links-email-all", kwargs={"slug": event.slug}), follow=True)
    assert sorted(m["X-Envelope-To"] for m in inbox.messages) == sorted(e.player.email for e in with_mail)
    for entry in with_mail:
        [mail] = inbox.to(entry.player.email)
        assert f"{settings.SITE_URL}{private_links.path_for(entry)}" in Inbox.body(mail)
    assert not inbox.to(gone.player.email)
    text = done.content.decode()
    assert "Links sent: 3." in text and silent.player.last_name in text
    assert AuditEntry.objects.filter(action="entry.link_email", user=organiser).count() == 3
    assert client.get(reverse("manage-links-email-all", kwargs={"slug": event.slug})).status_code == 405


def test_email_all_links_reports_a_failed_server_and_sends_nothing_twice(client, event, organiser, settings):
    EntryFactory(tournament=event, player__email="p@example.org")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2  # nobody listens
    client.cookies["django_language"] = "ru"
    done = client.post(reverse("manage-links-email-all", kwargs={"slug": event.slug}), follow=True)
    assert done.status_code == 200
    text = done.content.decode()
    assert "p@example.org" in text and "Отправлено ссылок: 0." in text
    assert not AuditEntry.objects.filter(action="entry.link_email").exists()
