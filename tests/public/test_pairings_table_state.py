"""The public pairings show each table's state at a glance (issue 44): a badge with words, not a
colour alone, in the reader's language; it follows a report and a confirmation at once."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from tournaments.models import Match, ResultStatus, Tournament
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {"pending": "not played", "reported": "reported", "confirmed": "confirmed", "disputed": "disputed"},
    "ru": {"pending": "не сыгран", "reported": "сообщён", "confirmed": "подтверждён", "disputed": "оспорен"},
}


def _states(client, slug: str, number: int, language: str) -> dict[int, tuple[str, str]]:
    url = reverse("public-pairings", kwargs={"slug": slug}) + f"?round={number}"
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    out = {}
    for row in lxml.html.fromstring(html).xpath("//table[contains(@class,'pairings')]/tbody/tr"):
        badge = row.xpath(".//span[contains(@class,'table-state')]")
        table = row.xpath("./td[1]")[0].text_content().strip()
        if badge and table:
            out[int(table)] = (badge[0].get("class").split()[-1], badge[0].text_content().strip())
    return out


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_table_shows_its_state_in_words(client, demo, language):
    tournament = Tournament.objects.get(slug=SWISS_SLUG)
    rnd = tournament.rounds.filter(status="published").order_by("-number").first()
    matches = list(Match.objects.filter(round=rnd, entry_b__isnull=False).order_by("table"))
    assert len(matches) >= 2
    before = _states(client, SWISS_SLUG, rnd.number, language)
    assert before, "no table shows its state"
    for table, (state, words) in before.items():
        assert words == WORDS[language][state], (table, state, words)
    # A report and a dispute show at once (the round's pairings are rebuilt on a saved match).
    first, second = matches[0], matches[1]
    first.result_status = ResultStatus.REPORTED
    first.save()
    second.result_status = ResultStatus.DISPUTED
    second.save()
    after = _states(client, SWISS_SLUG, rnd.number, language)
    assert after[first.table] == ("reported", WORDS[language]["reported"])
    assert after[second.table] == ("disputed", WORDS[language]["disputed"])
