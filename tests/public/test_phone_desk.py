"""A desk that works on a phone (issue 30).

The organiser's bar is the current step plus a disclosure menu on a narrow screen
(no script needed), no two tabs share a name in either language, and the player's
private page puts the current match — score and next action — above check-in.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import workflow
from tests.factories import MatchFactory, OfficialFactory, RoundFactory, TournamentFactory
from tournaments.access import private_links
from tournaments.models import EntryStatus, OfficialRole
from tournaments.organiser_tabs import TABS

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_two_organiser_tabs_share_a_name(language):
    with translation.override(language):
        labels = [str(tab.label) for tab in TABS]
    assert len(labels) == len(set(labels)), labels


def test_tab_bar_on_a_phone_is_the_current_step_and_a_menu(client):
    tournament = TournamentFactory()
    organiser = OfficialFactory(tournament=tournament, role=OfficialRole.ORGANISER).user
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/manage/entries/", **RU).content.decode()
    menu = page.split('<details class="tabs-narrow">')[1].split("</details>")[0]
    summary = menu.split("<summary>")[1].split("</summary>")[0]
    assert "Заявки" in summary and "меню" in summary  # the step the organiser is on, named
    # The menu reaches every working page the wide bar reaches.
    wide = page.split('<span class="tabs-wide">')[1].split("</span>")[0]
    assert wide.count("<a ") == menu.count("<a ") > 5
    assert "Запросы на участие" in menu


@pytest.fixture
def match():
    t = TournamentFactory(match_length=7)
    m = MatchFactory(round=RoundFactory(tournament=t, number=1), table=3)
    m.entry_b.status = EntryStatus.REGISTERED
    m.entry_b.save()
    return m


def test_private_page_puts_current_match_above_check_in(client, match):
    page = client.get(private_links.path_for(match.entry_b), **EN).content.decode()
    assert 'id="check-in"' in page
    assert page.index('id="current-match"') < page.index('id="status"') < page.index('id="check-in"')


def test_private_page_shows_the_opponents_report_from_my_side_and_asks_to_confirm(client, match):
    workflow.submit_result(
        match.pk, private_links.LinkHolder(match.entry_a), version=match.version, final=(7, 3)
    )
    page = client.get(private_links.path_for(match.entry_b), **EN).content.decode()
    card = page.split('id="current-match"')[1].split("</div>")[0]
    assert 'id="current-score">3:7<' in card  # B's own score first
    assert "confirm it or dispute it" in card
    assert "Confirm or dispute the result" in card
    mine = client.get(private_links.path_for(match.entry_a), **RU).content.decode()
    card = mine.split('id="current-match"')[1].split("</div>")[0]
    assert 'id="current-score">7:3<' in card and "его подтверждает соперник" in card
