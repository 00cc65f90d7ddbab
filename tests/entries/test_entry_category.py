"""An entry keeps the category it was entered in; a played entry never changes section; the
event's organiser sets the category an entry plays in (issue 35, book Part 9: players
«записываются в выбранную ими категорию»)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.categories import change_category
from clubs.models import ClubRole
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
from tournaments.entries import roster
from tournaments.entries.status import EntryRefused
from tournaments.models import AuditEntry, Entry, OfficialRole
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t = TournamentFactory(slug="cats", public=True)
    low = SectionFactory(tournament=t, name="Средняя", min_category=4, max_category=6, order=1)
    high = SectionFactory(tournament=t, name="Высшая", min_category=7, max_category=9, order=2)
    return t, low, high


@pytest.fixture
def director(event):
    """The event's organiser — an official of the event, not an organiser of anybody's club."""
    user = UserFactory(username="event-boss")
    OfficialFactory(tournament=event[0], user=user, role=OfficialRole.ORGANISER)
    return user


def test_a_category_change_mid_event_leaves_the_entry_in_its_category_and_section(event, director):
    t, low, high = event
    player = PlayerFactory(category=6)
    entry = roster.enter(t, player, director)
    assert (entry.category, entry.section) == (6, low)
    change_category(player, 7, reason="won the open", user=director)
    entry.refresh_from_db()
    assert (entry.category, entry.section_id) == (6, low.pk)
    info = load_event(t).entries[entry.pk]
    assert info.category == 6 and info.section == str(low.pk)
    # The profile keeps the history; the player's category is 7 from now on.
    assert list(player.category_changes.values_list("category_from", "category_to")) == [(6, 7)]
    # The next event enters them as 7.
    other = TournamentFactory(slug="next")
    assert roster.enter(other, player, director).category == 7


def test_a_played_entry_is_not_moved_to_another_section(client, event, director):
    t, low, high = event
    rnd = RoundFactory(tournament=t, section=low, number=1, finished=True)
    match = MatchFactory(round=rnd, entry_a__tournament=t, entry_a__section=low,
                         entry_b__tournament=t, entry_b__section=low, confirmed=True)  # fmt: skip
    entry = match.entry_a
    with pytest.raises(EntryRefused) as refused:
        roster.change_entry(entry, director, section=high)
    assert refused.value.problem.code == "entry.section_played"
    assert "Средняя" in refused.value.problem.message("ru")
    client.force_login(director)
    page = client.post(reverse("manage-entry", kwargs={"slug": "cats", "entry_id": entry.pk}),
                       {"action": "section", "section": high.pk}, follow=True, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert "cannot move to another section" in page.content.decode()
    api = APIClient()
    api.force_authenticate(director)
    answer = api.patch(f"/api/tournaments/cats/entries/{entry.pk}/", {"section": high.pk}, format="json",
                       HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 409 and answer.json()["code"] == "entry.section_played"
    assert "перевести заявку в другую секцию нельзя" in answer.json()["detail"]
    assert Entry.objects.get(pk=entry.pk).section_id == low.pk
    # Not yet paired: the move is allowed.
    fresh = EntryFactory(tournament=t, section=low)
    assert roster.change_entry(fresh, director, section=high).section == high


def test_the_events_organiser_sets_the_category_an_entry_plays_in(client, event, director):
    t, low, high = event
    player = PlayerFactory(category=6)
    entry = roster.enter(t, player, director)
    assert not ClubRole.objects.filter(user=director).exists()  # not the player's club organiser
    api = APIClient()
    api.force_authenticate(director)
    answer = api.patch(f"/api/tournaments/cats/entries/{entry.pk}/", {"category": 7, "reason": "by rating"},
                       format="json")  # fmt: skip
    assert answer.status_code == 200, answer.json()
    assert answer.json()["category"] == 7 and answer.json()["section"] == "Высшая"
    player.refresh_from_db()
    assert player.category == 6 and not player.category_changes.exists()  # the profile is untouched
    assert AuditEntry.objects.filter(action="entry.change", object_id=str(entry.pk)).exists()
    # The page does the same; a category no section holds is refused with the reason.
    client.force_login(director)
    client.post(reverse("manage-entry", kwargs={"slug": "cats", "entry_id": entry.pk}),
                {"action": "category", "category": "5"})  # fmt: skip
    entry.refresh_from_db()
    assert (entry.category, entry.section_id) == (5, low.pk)
    bad = api.patch(f"/api/tournaments/cats/entries/{entry.pk}/", {"category": 2}, format="json",
                    HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert bad.status_code == 409 and bad.json()["code"] == "entry.category_outside_section"
