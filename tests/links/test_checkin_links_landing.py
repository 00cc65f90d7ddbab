"""The desk's bulk check-in, the organiser's page of private links (reissue, email) and
where a player lands after logging in."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    UserFactory,
    enter,
)
from tests.smtp import Inbox, smtp_server
from tournaments.access import private_links
from tournaments.models import AuditEntry, EntryStatus, OfficialRole

pytestmark = pytest.mark.django_db


def test_bulk_check_in_with_plain_boxes_and_counts(client, event, organiser):
    a, b, c, gone = enter(event, [{}, {}, {}, {}])
    gone.status = EntryStatus.WITHDRAWN
    gone.save()
    url = reverse("manage-check-in", kwargs={"slug": event.slug})
    page = client.get(url)
    assert (page.context["present"], page.context["absent"]) == (0, 3)
    assert 'type="checkbox" name="present"' in page.content.decode()
    def shown():  # every row posts the state it was shown with (see test_checkin_conflicts)
        return {f"shown-{e.pk}": "1" if e.status == "checked_in" else "0" for e in (a, b, c)}

    client.post(url, {"present": [a.pk, b.pk], **shown()})
    statuses = {e.pk: e.status for e in event.entries.all()}
    assert statuses == {a.pk: "checked_in", b.pk: "checked_in", c.pk: "registered", gone.pk: "withdrawn"}
    # Unticking undoes a check-in; "all" ticks everyone still in.
    for e in (a, b, c):
        e.refresh_from_db()
    client.post(url, {"present": [b.pk], **shown()})
    assert event.entries.get(pk=a.pk).status == "registered"
    assert AuditEntry.objects.filter(action="entry.check_out").count() == 1
    for e in (a, b, c):
        e.refresh_from_db()
    client.post(url, {"all": "1", **shown()})
    page = client.get(url)
    assert (page.context["present"], page.context["absent"]) == (3, 0)
    assert event.entries.get(pk=gone.pk).status == "withdrawn"


def test_check_in_is_the_desks(client, event):
    referee = OfficialFactory(tournament=event, role=OfficialRole.REFEREE).user
    client.force_login(referee)
    assert client.get(reverse("manage-check-in", kwargs={"slug": event.slug})).status_code == 403


def test_links_page_reissue_and_email(client, event, organiser):
    entry = EntryFactory(tournament=event, player__email="p@example.org")
    silent = EntryFactory(tournament=event)
    url = reverse("manage-links", kwargs={"slug": event.slug})
    page = client.get(url)
    old = private_links.url_for(entry)
    text = page.content.decode()
    assert f"http://testserver{old}" in text
    assert text.count("Email the link") + text.count("Отправить ссылку письмом") == 1  # only who has an email
    client.post(reverse("manage-link-reissue", kwargs={"slug": event.slug, "entry_id": entry.pk}))
    assert client.get(old).status_code == 404
    entry.refresh_from_db()
    new = private_links.url_for(entry)
    assert new != old and client.get(new).status_code == 200
    assert AuditEntry.objects.filter(action="entry.link_reissue", user=organiser).exists()
    with smtp_server() as inbox:
        client.post(reverse("manage-link-email", kwargs={"slug": event.slug, "entry_id": entry.pk}))
        client.post(reverse("manage-link-email", kwargs={"slug": event.slug, "entry_id": silent.pk}))
    [mail] = inbox.messages
    assert "p@example.org" in mail["X-Envelope-To"]
    assert f"{settings.SITE_URL}{new}" in Inbox.body(mail)  # emails use the one site address (zarik.site)
    assert "Your private link" in mail["Subject"]


def test_links_page_is_the_organisers(client, event):
    client.force_login(UserFactory())
    assert client.get(reverse("manage-links", kwargs={"slug": event.slug})).status_code == 403


def test_tabs_show_the_new_pages_to_the_organiser(client, event, organiser):
    page = client.get(reverse("manage-links", kwargs={"slug": event.slug})).content.decode()
    for name in ("manage-registrations", "manage-links", "manage-check-in"):
        assert reverse(name, kwargs={"slug": event.slug}) in page


def login(client, user, next_url=""):
    suffix = f"?next={next_url}" if next_url else ""
    return client.post(reverse("login") + suffix, {"username": user.username, "password": "zarik-test"})


def test_a_player_lands_on_their_match_after_logging_in(client):
    user = UserFactory()
    match = MatchFactory(entry_b__player__user=user)
    MatchFactory(round=RoundFactory(tournament=match.round.tournament, number=2, draft=True),
                 entry_a=match.entry_b, entry_b=match.entry_a)
    response = login(client, user)
    assert response["Location"] == reverse("me")
    target = client.get(reverse("me"))["Location"]
    assert target == reverse("result-match", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})


def test_without_a_current_match_the_player_lands_on_their_tournament(client):
    user = UserFactory()
    match = MatchFactory(entry_a__player__user=user, round__finished=True)
    client.force_login(user)
    assert client.get(reverse("me"))["Location"] == reverse("tournament", kwargs={"slug": match.round.tournament.slug})


def test_anyone_else_lands_home_and_next_still_wins(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("me"))["Location"] == reverse("home")
    client.logout()
    assert login(client, user, "/t/x/standings/")["Location"] == "/t/x/standings/"
