"""Every key page speaks one language (issue 30, "Words").

Each page is rendered in Russian and in English from the demo; its visible text
(no markup, no <code>/<pre>, which show keys and JSON) minus the data people typed
(player, club, tournament, section and team names) must carry no known English UI word
in Russian and no Cyrillic UI word in English.
"""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import formats, translation

from clubs.models import Club, Player
from tournaments.models import Entry, Section, Team, Tournament
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db

#: English words of our own UI that a Russian page must never show (whole words, case-sensitive).
ENGLISH_UI_WORDS = (
    "Standings", "Crosstable", "Pairings", "Players", "Round", "Player", "Name", "Table",
    "Result", "Confirmed", "Reported", "Save", "Cancel", "Filter", "Status", "Access",
    "Token", "Key", "Created", "Revoke", "Settings", "Entries", "Draw", "Desk", "Export",
    "what uses it", "Action", "Object", "Before", "After", "Reason",
)
WORD = re.compile(r"\b(" + "|".join(re.escape(w) for w in ENGLISH_UI_WORDS) + r")\b")
CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё][А-Яа-яЁё-]+")


class VisibleText(HTMLParser):
    """The text a reader sees, without scripts, styles, code samples and JSON snapshots."""

    SKIP = {"script", "style", "code", "pre", "title"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def people_and_names() -> list[str]:
    """Data typed by people, longest first: it may be in any alphabet on any page."""
    names: set[str] = set()
    for p in Player.objects.all():
        names.update(
            n for n in (
                getattr(p, "full_name", ""), p.last_name, p.first_name, getattr(p, "middle_name", ""),
                str(p),
            ) if n
        )
    for model, fields in ((Club, ("name", "city")), (Tournament, ("name", "venue", "description")),
                          (Section, ("name",)), (Team, ("name",))):
        for row in model.objects.all():
            names.update(str(getattr(row, f, "") or "") for f in fields if hasattr(row, f))
    names.update(str(e) for e in Entry.objects.select_related("player"))
    return sorted((n for n in names if n), key=len, reverse=True)


#: Not UI words: the book's title (cited in its own language) and the language switcher's
#: names of each language in itself.
NOT_UI = ["Нарды – игра тысячелетий", "Русский"]


def without_data(text: str, data: list[str]) -> str:
    for name in [*NOT_UI, *data]:
        text = text.replace(name, " ")
    return text


def key_pages() -> list[str]:
    slug = {"slug": SWISS_SLUG}
    return [
        reverse("account-tokens"),
        reverse("account"),
        reverse("audit-log", kwargs=slug),
        reverse("public-export", kwargs=slug),
        reverse("manage-links", kwargs=slug),
        reverse("manage-entries", kwargs=slug),
        reverse("desk", kwargs=slug),
        reverse("tournament", kwargs=slug),
        reverse("public-standings", kwargs=slug),
        reverse("public-pairings", kwargs=slug),
    ]


@pytest.fixture
def organiser_client(client, demo):
    client.force_login(get_user_model().objects.get(username="organiser"))
    return client


def test_russian_pages_carry_no_english_ui_words(organiser_client):
    data = people_and_names()
    found = {}
    for url in key_pages():
        page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        assert page.status_code == 200, url
        words = sorted(set(WORD.findall(without_data(visible(page.content.decode()), data))))
        if words:
            found[url] = words
    assert found == {}


def test_english_pages_carry_no_cyrillic_ui_words(organiser_client):
    data = people_and_names()
    found = {}
    for url in key_pages():
        page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200, url
        words = sorted(set(CYRILLIC_WORD.findall(without_data(visible(page.content.decode()), data))))
        if words:
            found[url] = words
    assert found == {}


def test_the_detector_sees_english_ui_words_but_not_code_or_peoples_names():
    html = "<p>Турнир: Standings</p><code>Token abc</code><p>Иванов Round</p>"
    text = without_data(visible(html), ["Иванов Round"])
    assert WORD.findall(text) == ["Standings"]
    assert CYRILLIC_WORD.findall(without_data(visible("<p>Table Турнир</p>"), [])) == ["Турнир"]


def test_english_dates_are_day_first_with_a_24_hour_clock():
    moment = dt.datetime(2026, 11, 27, 13, 26)
    with translation.override("en"):
        assert formats.date_format(moment.date()) == "27 November 2026"
        assert formats.date_format(moment, "SHORT_DATE_FORMAT") == "2026-11-27"
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "2026-11-27 13:26"
    with translation.override("ru"):
        assert formats.date_format(moment.date()) == "27 ноября 2026 г."
