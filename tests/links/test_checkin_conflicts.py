"""The desk's check-in page and the players' phones write the same status (issue 36):
a desk save applies only what the organiser changed, a player may take back their own
check-in until the round is paired, and the desk finds a player by name."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tests.factories import OfficialFactory, RoundFactory, enter
from tournaments.access import private_links
from tournaments.entries import status as entry_status
from tournaments.models import AuditEntry, EntryStatus, OfficialRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(event, client):
    client.force_login(OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user)
    return reverse("manage-check-in", kwargs={"slug": event.slug})


def shown_form(page) -> dict:
    """What the browser posts back as the page was shown: every row's shown state, the ticked boxes."""
    html = page.content.decode()
    data: dict = {"present": []}
    for e in page.context["entries"]:
        shown = "1" if e.status == EntryStatus.CHECKED_IN else "0"
        assert f'name="shown-{e.pk}" value="{shown}"' in html
        data[f"shown-{e.pk}"] = shown
        if shown == "1":
            data["present"].append(str(e.pk))
    return data


def status(entry) -> str:
    entry.refresh_from_db()
    return entry.status


def test_desk_save_keeps_a_phone_check_in_made_while_the_page_was_open(client, event, desk):
    phone, ticked, other = enter(event, [{}, {}, {}])
    form = shown_form(client.get(desk))
    # Meanwhile the player taps "I am here" on the phone.
    anon = client.__class__()
    anon.post(reverse("private-check-in", kwargs={"token": private_links.token_for(phone)}))
    assert status(phone) == EntryStatus.CHECKED_IN
    form["present"].append(str(ticked.pk))
    response = client.post(desk, form, follow=True)
    assert (status(phone), status(ticked), status(other)) == ("checked_in", "checked_in", "registered")
    said = {m.level_tag: str(m) for m in response.context["messages"]}
    assert "1" in said["success"]  # one change: the desk's own
    assert phone.player.full_name in said["info"]  # reported as changed elsewhere, and kept
    assert not AuditEntry.objects.filter(action="entry.check_out").exists()


def test_desk_untick_of_a_player_undone_on_the_phone_meanwhile_is_not_a_second_change(client, event, desk):
    (entry,) = enter(event, [{}])
    entry_status.check_in(entry, private_links.LinkHolder(entry))
    form = shown_form(client.get(desk))
    entry_status.undo_own_check_in(entry, private_links.LinkHolder(entry))
    form["present"] = []
    client.post(desk, form)
    assert status(entry) == EntryStatus.REGISTERED
    assert AuditEntry.objects.filter(action="entry.check_out").count() == 1


def test_desk_save_does_not_check_in_a_player_withdrawn_meanwhile(client, event, desk):
    (entry,) = enter(event, [{}])
    form = shown_form(client.get(desk))
    entry.status = EntryStatus.WITHDRAWN
    entry.save()
    form["present"] = [str(entry.pk)]
    response = client.post(desk, form, follow=True)
    assert status(entry) == EntryStatus.WITHDRAWN
    said = {m.level_tag: str(m) for m in response.context["messages"]}
    assert entry.player.full_name in said["error"]


def test_desk_save_of_a_filtered_page_leaves_the_rows_not_shown(client, event, desk):
    shown, hidden = enter(event, [{"last_name": "Семёнов"}, {"last_name": "Иванов"}])
    entry_status.check_in(hidden, private_links.LinkHolder(hidden))
    page = client.get(desk, {"q": "семенов"})
    assert [e.pk for e in page.context["entries"]] == [shown.pk]
    assert 'for="checkin-q"' in page.content.decode()  # the search box has a label
    form = shown_form(page)
    form["all"] = "1"
    client.post(f"{desk}?q=semenov", form)
    assert (status(shown), status(hidden)) == ("checked_in", "checked_in")


def test_desk_search_finds_a_player_by_latin_name(client, event, desk):
    a, b = enter(event, [{"last_name": "Кузнецов", "last_name_latin": "Kuznetsov"}, {}])
    page = client.get(desk, {"q": "Kuznetsov"})
    assert [e.pk for e in page.context["entries"]] == [a.pk]
    assert client.get(desk, {"q": "Смирнова"}).context["entries"] == []


def test_player_undoes_own_check_in_by_link_until_the_round_is_paired(client, event):
    (entry,) = enter(event, [{}])
    token = private_links.token_for(entry)
    page_url = reverse("private-entry", kwargs={"token": token})
    client.post(reverse("private-check-in", kwargs={"token": token}))
    page = client.get(page_url)
    assert page.context["can_undo_check_in"] is True
    assert 'id="undo-check-in"' in page.content.decode()
    client.post(reverse("private-check-in-undo", kwargs={"token": token}))
    assert status(entry) == EntryStatus.REGISTERED
    assert AuditEntry.objects.get(action="entry.check_out").user is None
    # Checked in again, then the round is paired: the button goes and the service refuses.
    client.post(reverse("private-check-in", kwargs={"token": token}))
    RoundFactory(tournament=event, draft=True)
    assert client.get(page_url).context["can_undo_check_in"] is False
    html = client.post(reverse("private-check-in-undo", kwargs={"token": token}), follow=True).content.decode()
    assert status(entry) == EntryStatus.CHECKED_IN
    assert "paired already" in html or "уже составлен" in html


def test_undo_own_check_in_is_open_again_once_the_round_is_finished(event):
    (entry,) = enter(event, [{}])
    holder = private_links.LinkHolder(entry)
    entry_status.check_in(entry, holder)
    rnd = RoundFactory(tournament=event)
    with pytest.raises(entry_status.EntryRefused):
        entry_status.undo_own_check_in(entry, holder)
    rnd.status = "finished"
    rnd.save()
    assert entry_status.undo_own_check_in(entry, holder).status == EntryStatus.REGISTERED


def test_another_entrys_link_cannot_undo_a_check_in(event):
    mine, theirs = enter(event, [{}, {}])
    entry_status.check_in(theirs, private_links.LinkHolder(theirs))
    with pytest.raises(PermissionDenied):
        entry_status.undo_own_check_in(theirs, private_links.LinkHolder(mine))
