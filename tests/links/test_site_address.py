"""Links that work in the hall (issue 30): links and QR codes use the configured site address.

``make run`` serves 127.0.0.1, which no phone can open; ``make run HOST=0.0.0.0``
sets ``SITE_URL`` to the LAN address, and every private link, QR code and email is
built from it (:mod:`zarik.site`). The links page warns while the address
links use is this computer only.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, OfficialFactory, TournamentFactory
from tournaments.access import private_links
from tournaments.models import OfficialRole
from zarik import site

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HALL = "http://192.168.1.20:8000"


@pytest.mark.parametrize(
    "url, loopback",
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.3.2.1", True),
        ("http://localhost:8000", True),
        ("http://zarik.localhost", True),
        ("http://[::1]:8000", True),
        ("http://0.0.0.0:8000", True),
        ("http://192.168.1.20:8000", False),
        ("https://zarik.example.org", False),
        ("http://testserver", False),
    ],
)
def test_loopback_addresses_are_the_ones_no_phone_can_open(url, loopback):
    assert site.is_loopback(url) is loopback


@pytest.fixture
def links_page(client):
    t = TournamentFactory(slug="hall-links")
    entry = EntryFactory(tournament=t)
    client.force_login(OfficialFactory(tournament=t, role=OfficialRole.ORGANISER).user)
    url = reverse("manage-links", kwargs={"slug": t.slug})
    return client, url, entry


def test_links_use_the_configured_site_address_not_the_desks_loopback(links_page, settings):
    client, url, entry = links_page
    settings.SITE_URL = HALL
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    page = client.get(url, HTTP_HOST="127.0.0.1:8000", **EN).content.decode()
    assert f'value="{HALL}{private_links.path_for(entry)}"' in page
    assert 'id="loopback-warning"' not in page


def test_links_page_warns_while_links_point_at_this_computer(links_page, settings):
    client, url, entry = links_page
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    page = client.get(url, HTTP_HOST="127.0.0.1:8000", **EN).content.decode()
    warning = page.split('id="loopback-warning"')[1].split("</p>")[0]
    assert "http://127.0.0.1:8000" in warning and "HOST=0.0.0.0" in warning
    ru = client.get(url, HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "ни один телефон" in ru


def test_a_loopback_setting_gives_way_to_the_hall_address_the_request_came_in_on(links_page, settings):
    client, url, entry = links_page
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    page = client.get(url, HTTP_HOST="192.168.1.20:8000", **EN).content.decode()
    assert f'value="{HALL}{private_links.path_for(entry)}"' in page
    assert 'id="loopback-warning"' not in page


def test_player_cards_encode_the_site_address(client, settings):
    t = TournamentFactory(slug="hall-cards")
    entry = EntryFactory(tournament=t)
    client.force_login(OfficialFactory(tournament=t, role=OfficialRole.ORGANISER).user)
    settings.SITE_URL = HALL
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    body = client.get(
        reverse("print-player-cards", kwargs={"slug": t.slug}), HTTP_HOST="127.0.0.1:8000", **EN
    ).content.decode()
    assert HALL + private_links.path_for(entry) in body
    assert "http://127.0.0.1:8000/p/" not in body
