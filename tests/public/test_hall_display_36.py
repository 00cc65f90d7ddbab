"""The hall display after issue 36: live data, text fitted to the rows, withdrawn and bye rows.

The hall is read from across a room: a result must reach it within seconds, a short round must
fill the screen, and a bye or a withdrawn player must read as such, as on the public pages.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from scoring.workflow import submit_result
from tests.factories import EntryFactory, OfficialFactory, TournamentFactory, UserFactory
from tests.smtp import Inbox, smtp_server
from tournaments.entries.status import withdraw
from tournaments.models import AuditEntry, Entry, Match, OfficialRole
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


@pytest.fixture
def five(db, fresh_cache, django_capture_on_commit_callbacks):
    """Six entered, the sixth withdrawn before round 1: five paired, one of them with the bye."""
    t = TournamentFactory(name="Зал", slug="hall-five", match_length=5)
    organiser = UserFactory(username="hall-org")
    OfficialFactory(tournament=t, user=organiser, role=OfficialRole.ORGANISER)
    for i in range(1, 7):
        EntryFactory(
            tournament=t,
            draw_number=i,
            seed_rating=2000 - i,
            player__last_name=f"Залов{i}",
            player__last_name_latin=f"Zalov{i}",
            player__first_name="Иван",
            player__email=f"zal{i}@example.org",
        )
    gone = Entry.objects.get(tournament=t, draw_number=6)
    withdraw(gone, organiser, reason="ill")
    [r1] = pm.generate_next(t, user=organiser)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        pm.publish_round(r1, user=organiser)
    return {"t": t, "organiser": organiser, "round": r1, "inbox": inbox, "gone": gone}


def _frame(client, slug: str, page: int = 1) -> str:
    client.cookies["django_language"] = "en"
    url = reverse("hall-frame", kwargs={"slug": slug})
    return client.get(f"{url}?page={page}").content.decode()


def _row_of(html: str, name: str) -> str:
    [row] = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", html, re.S) if name in r]
    return row


def test_hall_marks_a_player_withdrawn_before_round_one_in_its_standings(client, five):
    standings = _frame(client, "hall-five", page=2)
    assert 'class="hall-table standings"' in standings
    assert "(withdrawn)" in _row_of(standings, "Zalov6")
    assert "withdrawn" not in _row_of(standings, "Zalov1")


def test_hall_shows_the_bye_as_a_bye_not_a_table_with_a_dash(client, five):
    bye = Match.objects.get(round=five["round"], entry_b__isnull=True)
    pairings = _frame(client, "hall-five", page=1)
    row = _row_of(pairings, bye.entry_a.player.last_name_latin)
    assert 'class="bye"' in row and ">bye<" in row
    assert "–" not in row and '<td class="score">' not in row
    assert '<td class="table-no"></td>' in row  # no table number for a seat nobody sits at


def test_the_bye_players_email_does_not_ask_for_a_result_and_their_page_has_no_empty_score(
    client, five
):
    bye = Match.objects.get(round=five["round"], entry_b__isnull=True)
    inbox = five["inbox"]
    [mail] = inbox.to(bye.entry_a.player.email)
    body = Inbox.body(mail)
    assert "bye" in body.lower() or "свободн" in body.lower()
    assert "report" not in body.lower() and "сообщаете" not in body
    played = Match.objects.filter(round=five["round"], entry_b__isnull=False).first()
    [other] = inbox.to(played.entry_a.player.email)
    assert "сообщаете" in Inbox.body(other) or "report" in Inbox.body(other).lower()
    token = re.search(r"http://\S+/p/(\S+)/", body).group(1)
    own = client.get(reverse("private-entry", kwargs={"token": token})).content.decode()
    assert re.search(r'<td class="score">\s*:\s*</td>', own) is None  # the bye's row: no ":"
    page = client.get(
        reverse("private-match", kwargs={"token": token, "match_id": bye.pk})
    ).content.decode()
    assert "no match to play" in page or "играть не нужно" in page
    assert "Official result" not in page and "Официальный результат" not in page


def test_hall_says_a_reported_result_awaits_confirmation_then_shows_the_confirmed_score(
    client, five
):
    referee = UserFactory(username="hall-ref-36")
    OfficialFactory(tournament=five["t"], user=referee, role=OfficialRole.REFEREE)
    match = Match.objects.get(round=five["round"], table=1)
    submit_result(match.pk, referee, version=match.version, final=(5, 2))
    row = _row_of(_frame(client, "hall-five"), match.entry_a.player.last_name_latin)
    assert "reported, awaiting confirmation" in row and "5 : 2" not in row
    match.refresh_from_db()
    submit_result(match.pk, referee, version=match.version, final=(5, 2), confirm=True)
    row = _row_of(_frame(client, "hall-five"), match.entry_a.player.last_name_latin)
    assert "5 : 2" in row and "awaiting" not in row


def test_hall_page_carries_the_live_stamp_it_polls_and_the_screen_to_swap_in(client, five):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("hall", kwargs={"slug": "hall-five"})).content.decode()
    live = reverse("live-json", kwargs={"slug": "hall-five"})
    assert f'data-live="{live}"' in page and "js/hall.js" in page and "<script>" not in page
    stamp = re.search(r'data-stamp="([^"]*)"', page).group(1)
    assert stamp == client.get(live).json()["stamp"]
    self_url = re.search(r'data-self="([^"]*)"', page).group(1).replace("&amp;", "&")
    assert self_url.endswith("?page=1&every=10")  # the screen shown, not the next one
    referee = UserFactory(username="hall-ref-live")
    OfficialFactory(tournament=five["t"], user=referee, role=OfficialRole.REFEREE)
    match = Match.objects.get(round=five["round"], table=1)
    submit_result(match.pk, referee, version=match.version, final=(5, 1), confirm=True)
    assert client.get(live).json()["stamp"] != stamp
    assert "5 : 1" in client.get(self_url).content.decode()


def test_hall_text_is_sized_to_the_rows_the_screen_shows(client, five):
    pairings = _frame(client, "hall-five", page=1)
    assert 'data-rows="3"' in pairings  # two tables and the bye
    standings = _frame(client, "hall-five", page=2)
    assert 'data-rows="6"' in standings
    css = (Path(settings.BASE_DIR) / "static/css/hall.css").read_text()
    for rows in range(1, 17):
        assert f'.hall-frame[data-rows="{rows}"] {{ --rows:{rows}; }}' in css
    assert "var(--rows)" in css


# --------------------------------------------------------------------------- organiser settings


def test_organiser_chooses_standings_only_a_screen_length_and_a_round_clock(client, five):
    t = five["t"]
    client.force_login(five["organiser"])
    page = client.get(reverse("manage-hall", kwargs={"slug": "hall-five"}))
    assert page.status_code == 200 and 'name="hall_shows"' in page.content.decode()
    saved = client.post(
        reverse("manage-hall", kwargs={"slug": "hall-five"}),
        {"hall_shows": "standings", "hall_every": "25", "hall_round_minutes": "50"},
    )
    assert saved.status_code == 302
    t.refresh_from_db()
    assert (t.hall_shows, t.hall_every, t.hall_round_minutes) == ("standings", 25, 50)
    assert AuditEntry.objects.filter(tournament=t, action="tournament.settings").exists()
    client.logout()
    body = _frame(client, "hall-five", page=1)
    assert 'class="hall-table standings"' in body and "pairings" not in body
    assert 'data-pages="1"' in body  # six players: one standings screen, no pairings
    assert 'hx-trigger="every 25s"' in body
    five["round"].refresh_from_db()
    ends = re.search(r'class="hall-clock" data-ends="([^"]+)"', body).group(1)
    assert dt.datetime.fromisoformat(ends) == five["round"].published_at + dt.timedelta(minutes=50)


def test_hall_shows_pairings_only_and_no_clock_when_none_is_set(client, five):
    t = five["t"]
    t.hall_shows = "pairings"
    t.save()
    body = _frame(client, "hall-five", page=1)
    assert 'class="hall-table pairings"' in body and 'data-pages="1"' in body
    assert "hall-clock" not in body
    assert 'data-page="1"' in _frame(client, "hall-five", page=2)  # wraps: no standings screen


def test_hall_settings_refuse_a_screen_shorter_than_five_seconds_and_keep_what_was_typed(
    client, five
):
    client.force_login(five["organiser"])
    response = client.post(
        reverse("manage-hall", kwargs={"slug": "hall-five"}),
        {"hall_shows": "both", "hall_every": "2", "hall_round_minutes": "45"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    body = response.content.decode()
    assert response.status_code == 400 and "greater than or equal to 5" in body
    assert 'value="45"' in body and 'value="2"' in body
    five["t"].refresh_from_db()
    assert five["t"].hall_every == 10


def test_hall_settings_are_the_organisers_not_a_referees(client, five):
    referee = UserFactory(username="hall-ref-settings")
    OfficialFactory(tournament=five["t"], user=referee, role=OfficialRole.REFEREE)
    client.force_login(referee)
    response = client.post(
        reverse("manage-hall", kwargs={"slug": "hall-five"}),
        {"hall_shows": "pairings", "hall_every": "30", "hall_round_minutes": ""},
    )
    assert response.status_code in (403, 404)
    five["t"].refresh_from_db()
    assert five["t"].hall_shows == "both"


def test_the_hall_frame_is_a_fragment_for_htmx_and_the_hall_page_when_its_address_is_opened(client, five):
    """Issue 44: the frame's address opened by hand was a bare fragment (no language, no title,
    no Pause); htmx still gets the fragment, and the answers say they vary by the header."""
    url = "/t/hall-five/hall/frame/?page=2&every=10"
    fragment = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert fragment.content.decode().startswith('<main id="hall-frame"') and "HX-Request" in fragment["Vary"]
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and '<html lang="en">' in html and "<title>" in html
    assert 'id="hall-pause"' in html and 'data-page="2"' in html  # the screen asked for, on the hall page
