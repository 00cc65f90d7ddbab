"""Issue 28 item 7: an entry's update and delete, and check-in, over the API — the entries page's rules.

Each call goes through the services the pages call (``entries.roster``,
``entries.status``) and the permissions table's rows: the organiser changes and
removes entries, a player checks themselves in and may take it back until the round
is paired, an official checks anyone in.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    SectionFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import Entry, EntryStatus, OfficialRole, TokenScope

pytestmark = pytest.mark.django_db


def api(user) -> Client:
    _token, key = issue_token(user, "test", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def event():
    tournament = TournamentFactory(slug="spring-open")
    director = UserFactory()
    OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
    return tournament, api(director)


def url(entry: Entry, tail: str = "") -> str:
    return f"/api/tournaments/{entry.tournament.slug}/entries/{entry.pk}/{tail}"


def test_organiser_moves_an_entry_to_a_section_and_sets_its_rating(event):
    tournament, director = event
    section = SectionFactory(tournament=tournament, name="Open")
    entry = EntryFactory(tournament=tournament, seed_rating=1500)
    answer = director.patch(url(entry), {"section": section.pk, "seed_rating": 1650}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["section"] == "Open"
    entry.refresh_from_db()
    assert (entry.section_id, entry.seed_rating) == (section.pk, 1650)


def test_entry_rating_is_fixed_once_the_player_is_paired(event):
    tournament, director = event
    match = MatchFactory(round=RoundFactory(tournament=tournament), entry_a__seed_rating=1500)
    answer = director.patch(url(match.entry_a), {"seed_rating": 1900}, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "entry.rating_paired"
    match.entry_a.refresh_from_db()
    assert match.entry_a.seed_rating == 1500


def test_entry_section_of_another_tournament_is_refused_by_name(event):
    tournament, director = event
    elsewhere = SectionFactory()
    entry = EntryFactory(tournament=tournament)
    answer = director.patch(url(entry), {"section": elsewhere.pk}, content_type="application/json")
    assert answer.status_code == 400
    assert "section" in answer.json()["errors"]


def test_entry_status_patch_withdraws_and_reinstates_through_the_desk(event):
    tournament, director = event
    entry = EntryFactory(tournament=tournament)
    assert director.patch(url(entry), {"status": "withdrawn", "reason": "ill"},
                          content_type="application/json").json()["status"] == "withdrawn"  # fmt: skip
    assert director.patch(url(entry), {"status": "registered"},
                          content_type="application/json").json()["status"] == "registered"  # fmt: skip


def test_entry_update_by_a_player_is_forbidden(event):
    tournament, _director = event
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(user=UserFactory()))
    answer = api(entry.player.user).patch(url(entry), {"seed_rating": 2500}, content_type="application/json")
    assert answer.status_code == 403


def test_entry_update_refuses_an_unknown_field(event):
    tournament, director = event
    entry = EntryFactory(tournament=tournament)
    answer = director.patch(url(entry), {"seed_ratng": 1}, content_type="application/json")
    assert answer.status_code == 400
    assert "seed_ratng" in answer.json()["errors"]


def test_entry_delete_before_pairing_removes_it(event):
    tournament, director = event
    entry = EntryFactory(tournament=tournament)
    assert director.delete(url(entry)).status_code == 204
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_entry_delete_once_paired_is_refused_with_the_pages_problem(event):
    tournament, director = event
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    answer = director.delete(url(match.entry_a))
    assert answer.status_code == 409
    assert answer.json()["code"] == "entry.remove_paired"
    assert Entry.objects.filter(pk=match.entry_a.pk).exists()


def test_player_checks_in_and_undoes_it_before_pairing(event):
    tournament, _director = event
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(user=UserFactory()))
    player = api(entry.player.user)
    assert player.post(url(entry, "check-in/")).json()["status"] == "checked_in"
    assert player.delete(url(entry, "check-in/")).json()["status"] == "registered"


def test_player_cannot_undo_check_in_once_the_round_is_paired(event):
    tournament, _director = event
    user = UserFactory()
    match = MatchFactory(round=RoundFactory(tournament=tournament, draft=True),
                         entry_a__player=PlayerFactory(user=user), entry_a__status=EntryStatus.CHECKED_IN)  # fmt: skip
    answer = api(user).delete(url(match.entry_a, "check-in/"))
    assert answer.status_code == 409
    assert answer.json()["code"] == "entry.check_in_paired"
    match.entry_a.refresh_from_db()
    assert match.entry_a.status == EntryStatus.CHECKED_IN


def test_player_cannot_check_in_someone_else(event):
    tournament, _director = event
    entry = EntryFactory(tournament=tournament)
    other = UserFactory()
    PlayerFactory(user=other)
    assert api(other).post(url(entry, "check-in/")).status_code == 403
    entry.refresh_from_db()
    assert entry.status == EntryStatus.REGISTERED


def test_official_checks_anyone_in_and_out_even_after_pairing(event):
    tournament, director = event
    match = MatchFactory(round=RoundFactory(tournament=tournament, draft=True))
    assert director.post(url(match.entry_a, "check-in/")).json()["status"] == "checked_in"
    assert director.delete(url(match.entry_a, "check-in/")).json()["status"] == "registered"


def test_withdrawn_player_check_in_is_refused(event):
    tournament, _director = event
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(user=UserFactory()), status=EntryStatus.WITHDRAWN)
    answer = api(entry.player.user).post(url(entry, "check-in/"))
    assert answer.status_code == 409
    assert answer.json()["code"] == "entry.withdrawn_check_in"
