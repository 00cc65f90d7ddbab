"""The entries desk, the import preview and the team sheet, as the organiser and as outsiders."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from clubs.models import Club, ClubRole, Player
from clubs.search import search_players
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Entry, EntryStatus, TeamMember

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="Нарды-Клуб")


@pytest.fixture
def event(club):
    return TournamentFactory(slug="open", club=club, public=False)


@pytest.fixture
def organiser(club, client):
    """A club organiser (not a superuser, not an official of the event)."""
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    client.force_login(user)
    return user


def url(name, **kw):
    return reverse(name, kwargs={"slug": "open", **kw})


@pytest.fixture
def semenov():
    return PlayerFactory(last_name="Семёнов", first_name="Юрий", last_name_latin="", first_name_latin="")


# --- search --------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["Semenov", "Семенов", "семёнов", "Semyonov", "Semjonov", "Yury Semenov"])
def test_search_finds_a_player_in_any_alphabet(semenov, query):
    PlayerFactory(last_name="Симонов", first_name="Юрий")
    found = search_players(query)
    assert found[0] == semenov
    if connection.vendor != "postgresql":  # trigrams also offer the similar name, after him
        assert found == [semenov]


def test_search_by_latin_name_field_and_nothing_for_empty():
    p = PlayerFactory(last_name="Хайкин", first_name="Борис", last_name_latin="Khaykin", first_name_latin="Boris")
    assert search_players("Khaikin") == [p]
    assert search_players("Хайкин Борис") == [p]
    assert search_players("  ") == []


def test_search_key_follows_a_name_change(semenov):
    semenov.last_name = "Щукин"
    semenov.save(update_fields=["last_name"])
    assert Player.objects.get(pk=semenov.pk).search_key.startswith("shukin")
    assert search_players("Schukin") == [semenov]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram similarity needs PostgreSQL")
def test_trigram_search_forgives_a_typo_on_postgresql(semenov):
    PlayerFactory(last_name="Иванов", first_name="Пётр")
    assert search_players("Semenof")[0] == semenov  # a typo: no substring match, trigrams still find it
    assert search_players("Semenov")[0] == semenov


# --- permissions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["manage-entries", "manage-entries-import", "manage-teams", "manage-entries-search"])
def test_pages_need_the_organiser(client, event, name):
    assert client.get(url(name)).status_code == 302  # anonymous: to the login page
    referee = OfficialFactory(tournament=event).user
    client.force_login(referee)
    assert client.get(url(name)).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url(name)).status_code == 404  # an unreleased event does not exist for outsiders


def test_referee_cannot_add_an_entry(client, event, semenov):
    client.force_login(OfficialFactory(tournament=event).user)
    assert client.post(url("manage-entries-add"), {"player": semenov.pk}).status_code == 403
    assert not Entry.objects.exists()


# --- the desk ------------------------------------------------------------------------------------


def test_search_then_enter_a_player(client, organiser, event, semenov):
    page = client.get(url("manage-entries"), {"q": "Semenov"})  # without JS: the form submits
    assert page.status_code == 200
    assert "Семёнов Юрий" in page.content.decode()
    live = client.get(url("manage-entries-search"), {"q": "Semyonov"}, HTTP_HX_REQUEST="true")  # htmx's request
    assert "Семёнов Юрий" in live.content.decode() and "<html" not in live.content.decode()
    assert "HX-Request" in live["Vary"]
    opened = client.get(url("manage-entries-search"), {"q": "Semyonov"}).content.decode()  # its address opened
    assert "<html lang=" in opened and "<title>" in opened and "Семёнов Юрий" in opened  # a page, not a fragment
    response = client.post(url("manage-entries-add"), {"player": semenov.pk})
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=event)
    assert entry.player == semenov and entry.joined_round is None
    assert AuditEntry.objects.filter(action="entry.add", object_id=str(entry.pk)).exists()
    again = client.post(url("manage-entries-add"), {"player": semenov.pk}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "already entered" in again.content.decode()
    assert Entry.objects.count() == 1


def test_new_player_created_and_entered_in_one_go(client, organiser, event, club):
    data = {"last_name": "Хайкин", "first_name": "Борис", "last_name_latin": "Khaykin",
            "first_name_latin": "Boris", "category": "7", "rating": "1710", "email": "b@example.org",
            "club": club.pk}
    assert client.post(url("manage-entries-new"), data).status_code == 302
    player = Player.objects.get(last_name="Хайкин")
    assert (player.category, player.rating, player.email) == (7, 1710.0, "b@example.org")
    assert player.memberships.get().club == club
    assert Entry.objects.get(tournament=event).seed_rating == 1710.0


def test_new_player_bad_input_keeps_everything_typed(client, organiser, event):
    data = {"last_name": "", "first_name": "Борис", "last_name_latin": "Khaykin", "category": "7",
            "rating": "много", "email": "nope"}
    response = client.post(url("manage-entries-new"), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Борис"' in html and 'value="Khaykin"' in html and 'value="много"' in html
    assert "This field is required." in html and "Enter a valid email address." in html
    assert not Player.objects.exists()


def test_late_entry_after_round_one_is_published(client, organiser, event, semenov):
    RoundFactory(tournament=event, number=1)
    client.post(url("manage-entries-add"), {"player": semenov.pk})
    assert Entry.objects.get(player=semenov).joined_round == 2
    page = client.get(url("manage-entries"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "late · from round 2" in page


def test_seeding_order_toggle(client, organiser, event):
    low = EntryFactory(tournament=event, seed_rating=1400, player__category=9, draw_number=None)
    high = EntryFactory(tournament=event, seed_rating=1900, player__category=2, draw_number=None)
    by_rating = client.get(url("manage-entries"), {"order": "rating"}).context["entries"]
    assert list(by_rating) == [high, low]
    by_category = client.get(url("manage-entries"), {"order": "category"}).context["entries"]
    assert list(by_category) == [low, high]


def test_withdraw_reinstate_and_remove(client, organiser, event):
    entry = EntryFactory(tournament=event)
    client.post(url("manage-entry", entry_id=entry.pk), {"action": "withdraw"})
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.WITHDRAWN
    client.post(url("manage-entry", entry_id=entry.pk), {"action": "reinstate"})
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.REGISTERED
    client.post(url("manage-entry", entry_id=entry.pk), {"action": "remove"})
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert AuditEntry.objects.filter(action="entry.remove").exists()


def test_a_paired_entry_cannot_be_removed(client, organiser, event):
    match = MatchFactory(round__tournament=event)
    response = client.post(url("manage-entry", entry_id=match.entry_a_id), {"action": "remove"},
                           follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "withdraw the player instead" in response.content.decode()
    assert Entry.objects.filter(pk=match.entry_a_id).exists()


def test_tab_bar_shows_entries_to_the_organiser(client, organiser, event):
    html = client.get(url("manage-entries"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'aria-current="page">Entries<' in html
    assert ">Teams<" not in html  # only for Scheveningen


# --- import preview ------------------------------------------------------------------------------

CSV = "Фамилия,Имя,Клуб,Категория\nСемёнов,Юрий,Нарды-Клуб,5\n,Никто,,\nХайкин,Борис,,12\nЩукин,Иван,Новый клуб,3\n"


def test_import_preview_writes_nothing_then_confirm_imports(client, organiser, event):
    upload = SimpleUploadedFile("entries.csv", CSV.encode("utf-8-sig"), content_type="text/csv")
    preview = client.post(url("manage-entries-import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="en")
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "1 will be entered, 0 already entered, 2 refused. 1 row waits" in html
    assert "No last name." in html and 'name="new-club" value="Новый клуб"' in html  # a club only when ticked
    assert not Entry.objects.exists() and not Player.objects.exists()
    done = client.post(url("manage-entries-import"), {"confirm": "1", "new-club": "Новый клуб"}, follow=True)
    assert done.redirect_chain[-1][0].endswith(url("manage-entries"))
    assert sorted(Entry.objects.values_list("player__last_name", flat=True)) == ["Семёнов", "Щукин"]
    # the preview is used up: confirming again imports nothing more
    client.post(url("manage-entries-import"), {"confirm": "1"})
    assert Entry.objects.count() == 2


def test_importing_the_demos_own_players_by_latin_name_matches_them(client):
    """Issue 30: «Mamedov,Farid,,,1850» is the demo's Мамедов Фарид, not a second player.

    Every demo player typed in Latin letters, with their host club's slug, the other
    club's name, or no club at all: nobody new, no club new; the namesake of a row
    without a club is proposed (pre-selected) and the organiser's one click enters them.
    """
    from zarik.management.demo import CLUBS, SWISS_PLAYERS, load_demo

    load_demo()

    zarik, shesh = (Club.objects.get(slug=slug) for _name, slug, _city in CLUBS)
    boss = UserFactory(username="boss-demo")
    ClubRole.objects.create(club=zarik, user=boss)
    client.force_login(boss)
    TournamentFactory(slug="open", club=zarik, public=False)
    lines = ["last_name,first_name,club,category,rating"]
    for i, (_l, _f, last, first, _cat, rating, club_ix) in enumerate(SWISS_PLAYERS):
        club = ["", "zarik-club", "ZARIK-CLUB"][i % 3] if club_ix == 0 else ["", CLUBS[1][0], "shesh-besh"][i % 3]
        lines.append(f"{last},{first},{'' if last == 'Mamedov' else club},,{rating}")
    players, clubs = Player.objects.count(), Club.objects.count()
    upload = SimpleUploadedFile("demo.csv", "\n".join(lines).encode(), content_type="text/csv")
    preview = client.post(url("manage-entries-import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="en")
    html = preview.content.decode()
    assert "0 refused" in html and "new player, will be entered" not in html
    # what the browser posts back: every pre-selected radio (the proposals) as it is
    checked = dict(re.findall(r'<input type="radio" name="(person-\d+)" value="(\d+)" checked>', html))
    mamedov = Player.objects.get(last_name="Мамедов", first_name="Фарид")
    row = 2 + next(i for i, p in enumerate(SWISS_PLAYERS) if p[0] == "Мамедов")
    assert checked[f"person-{row}"] == str(mamedov.pk)  # «Mamedov,Farid,,,1850» is him
    client.post(url("manage-entries-import"), {"confirm": "1", **checked})
    entered = set(Entry.objects.filter(tournament__slug="open").values_list("player__last_name", flat=True))
    assert entered == {p[0] for p in SWISS_PLAYERS}
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs)
    assert Entry.objects.get(tournament__slug="open", player=mamedov).seed_rating == 1850
    assert zarik.pk != shesh.pk


def test_import_refused_file_is_a_field_error(client, organiser, event):
    upload = SimpleUploadedFile("old.xls", b"\xd0\xcf\x11\xe0\x00\x00binary", content_type="application/vnd.ms-excel")
    response = client.post(url("manage-entries-import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "не файл CSV, XLSX или TRF-16" in response.content.decode()


# --- teams ---------------------------------------------------------------------------------------


def test_team_sheet(client, organiser, event):
    event.system = "scheveningen"
    event.save()
    a, b = EntryFactory(tournament=event), EntryFactory(tournament=event)
    assert client.post(url("manage-teams"), {"what": "team", "name": "Север"}).status_code == 302
    dup = client.post(url("manage-teams"), {"what": "team", "name": "север"}, HTTP_ACCEPT_LANGUAGE="en")
    assert dup.status_code == 400 and "already" in dup.content.decode()
    team = event.teams.get()
    client.post(url("manage-teams"), {"what": "member", "team": team.pk, "entry": a.pk, "board": 1})
    taken = client.post(url("manage-teams"), {"what": "member", "team": team.pk, "entry": b.pk, "board": 1},
                        HTTP_ACCEPT_LANGUAGE="en")
    assert taken.status_code == 400 and "Board 1 of this team is taken" in taken.content.decode()
    client.post(url("manage-teams"), {"what": "member", "team": team.pk, "entry": b.pk, "board": 2})
    assert list(TeamMember.objects.filter(team=team).values_list("entry", "board")) == [(a.pk, 1), (b.pk, 2)]
    other = TeamFactory(tournament=event)
    client.post(url("manage-teams"), {"what": "member", "team": other.pk, "entry": a.pk, "board": 1})
    assert TeamMember.objects.get(entry=a).team == other  # moved, not doubled
    html = client.get(url("manage-teams"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'aria-current="page">Teams<' in html
    assert "Delete team" in html
    client.post(url("manage-teams"), {"what": "delete", "team": other.pk})
    assert not event.teams.filter(pk=other.pk).exists()
    assert AuditEntry.objects.filter(tournament=event, action="team.delete").exists()
    assert TeamMember.objects.filter(entry=a).count() == 0 and Entry.objects.filter(pk=a.pk).exists()


def test_after_an_import_the_waiting_rows_page_says_what_is_left_not_0_will_be_entered(client, organiser, event):
    """Issue 44: after importing, the page of the rows still waiting read "0 will be entered…"."""
    upload = SimpleUploadedFile("entries.csv", CSV.encode("utf-8-sig"), content_type="text/csv")
    client.post(url("manage-entries-import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="en")
    done = client.post(url("manage-entries-import"), {"confirm": "1"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    html = done.content.decode()
    assert "kept=1" in done.redirect_chain[-1][0]
    assert "Imported: 1 entered" in html  # what was just entered, in the message
    summary = html.split('id="import-summary">')[1].split("</p>")[0]
    assert "will be entered" not in summary and "1 row waits until you say who it is." in summary
    assert "Новый клуб" in html  # the waiting row is still there to decide
