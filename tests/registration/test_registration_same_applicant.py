"""Issue 36: registration never merges a stranger into a stored player, and one email is one applicant.

* «Петров Пётр» then «Петров Петр» (or «Petrov Petr») from the same email is the same
  applicant: the second is refused, keeping what was typed; another name from the same
  email is refused too, saying how to correct the first;
* refusing a duplicate that slipped in never tells the entered player "application refused";
* a visitor typing a stored player's name and club (anything a stranger can type) waits for
  the organiser, even when the event needs no approval: the stored player, their email and
  their account are untouched until the organiser picks them.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Membership, Player
from tests.factories import ClubFactory, OfficialFactory, PlayerFactory, TournamentFactory
from tests.smtp import smtp_server
from tournaments.models import OfficialRole, Registration, RegistrationStatus
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db

FORM = {
    "last_name": "Петров",
    "first_name": "Пётр",
    "last_name_latin": "",
    "first_name_latin": "",
    "email": "petr@example.org",
    "club_name": "",
    "category": "4",
    "rating": "",
}


@pytest.fixture
def event():
    return TournamentFactory(registration_open=True, registration_approval=True)


@pytest.fixture
def organiser(event):
    return OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user


def post(client, event, lang="ru", **changes):
    return client.post(
        reverse("register", kwargs={"slug": event.slug}), {**FORM, **changes}, HTTP_ACCEPT_LANGUAGE=lang
    )


@pytest.mark.parametrize(
    "second",
    [
        {"first_name": "Петр"},  # ё typed as е
        {"first_name": "Петр", "email": "PETR@Example.org"},  # the address in other capitals
        {"last_name": "Petrov", "first_name": "Petr"},  # Latin letters in the name boxes
        {"last_name": "Пётр", "first_name": "Петров"},  # the words swapped
    ],
)
def test_the_same_person_from_the_same_email_is_one_applicant(client, event, second):
    with smtp_server():
        post(client, event)
        page = post(client, event, **second).content.decode()
    assert Registration.objects.count() == 1
    assert "Заявка с этим именем и адресом уже подана" in page
    assert f'value="{second.get("last_name", "Петров")}"' in page  # what they typed stays


def test_another_name_from_the_same_email_is_refused_with_the_way_to_correct_it(client, event):
    with smtp_server():
        post(client, event)
        page = post(client, event, "en", last_name="Петренко").content.decode()
    assert Registration.objects.count() == 1
    assert "one email, one applicant" in page and 'value="Петренко"' in page


def test_a_refused_or_withdrawn_application_does_not_block_applying_again(client, event, organiser):
    with smtp_server():
        post(client, event)
        registration.refuse(Registration.objects.get(), organiser)
        post(client, event, first_name="Петр")
    assert Registration.objects.filter(status=RegistrationStatus.PENDING).count() == 1


def test_refusing_a_duplicate_never_tells_the_entered_player_they_are_refused(client, event, organiser):
    event.registration_approval = False
    event.save()
    with smtp_server():
        post(client, event)
    entered = Registration.objects.get()
    assert entered.status == RegistrationStatus.APPROVED
    # a duplicate from before this rule (or typed past it some other way), on the waiting list
    dup = Registration.objects.create(
        tournament=event, last_name="Петров", first_name="Петр", email="petr@example.org",
        status=RegistrationStatus.WAITLISTED,
    )  # fmt: skip
    client.force_login(organiser)
    url = reverse(
        "manage-registration-decide", kwargs={"slug": event.slug, "registration_id": dup.pk, "action": "refuse"}
    )
    with smtp_server() as inbox:
        page = client.post(url, HTTP_ACCEPT_LANGUAGE="en", follow=True).content.decode()
    assert inbox.to("petr@example.org") == []
    assert "No email was sent: the same address has another application standing" in page
    dup.refresh_from_db()
    entered.refresh_from_db()
    assert dup.status == RegistrationStatus.REFUSED and entered.status == RegistrationStatus.APPROVED
    assert entered.entry.status != "withdrawn"


def test_a_plain_refusal_is_still_emailed(client, event, organiser):
    with smtp_server() as inbox:
        post(client, event)
        registration.refuse(Registration.objects.get(), organiser, "no places for beginners")
    assert any("refused" in m["Subject"] for m in inbox.to("petr@example.org"))


def test_a_stranger_with_a_stored_players_name_and_club_waits_for_the_organiser(client):
    """The demo's case: «Кузнецов Алексей» of the host club, with an account; a stranger types both."""
    event = TournamentFactory(registration_open=True, registration_approval=False)
    club = ClubFactory(name="Нарды-Клуб «Зарик»")
    account = get_user_model().objects.create_user("player5", password="x")
    known = PlayerFactory(
        last_name="Кузнецов", first_name="Алексей", last_name_latin="Kuznetsov", first_name_latin="Alexey",
        email="", user=account,
    )  # fmt: skip
    Membership.objects.create(player=known, club=club, started_on=dt.date(2024, 1, 1))
    with smtp_server() as inbox:
        post(
            client, event, last_name="Кузнецов", first_name="Алексей", email="stranger@example.org",
            club_name="Нарды-Клуб «Зарик»",
        )  # fmt: skip
    reg = Registration.objects.get()
    assert reg.status == RegistrationStatus.PENDING and reg.entry is None
    assert not event.entries.exists()
    known.refresh_from_db()
    assert (known.email, known.user_id) == ("", account.pk)
    assert Player.objects.filter(last_name="Кузнецов").count() == 1
    assert all("/p/" not in m.get_payload() for m in inbox.to("stranger@example.org"))  # no private link
    # the organiser's approval without a choice is a question, not a merge
    organiser = OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user
    with pytest.raises(registration.RegistrationRefused) as refused:
        registration.approve(reg, organiser)
    assert refused.value.problem.code == "identity.choose"
    assert not event.entries.exists()


def test_the_same_email_as_the_stored_player_still_settles_it(client):
    event = TournamentFactory(registration_open=True, registration_approval=False)
    known = PlayerFactory(last_name="Кузнецов", first_name="Алексей", email="alexey@example.org")
    with smtp_server():
        post(client, event, last_name="Кузнецов", first_name="Алексей", email="Alexey@example.org")
    reg = Registration.objects.get()
    assert reg.status == RegistrationStatus.APPROVED and reg.entry.player == known


def _player5():
    club = ClubFactory(name="Нарды-Клуб «Зарик»")
    account = get_user_model().objects.create_user("player5", password="x")
    known = PlayerFactory(
        last_name="Кузнецов", first_name="Алексей", last_name_latin="Kuznetsov", first_name_latin="Alexey",
        email="alexey.k@club.example", user=account, category=7,
    )  # fmt: skip
    Membership.objects.create(player=known, club=club, started_on=dt.date(2024, 1, 1))
    return known, account


def test_a_player_logged_in_proves_who_they_are_and_their_record_stays_theirs(client):
    event = TournamentFactory(registration_open=True, registration_approval=False)
    known, account = _player5()
    client.force_login(account)
    form = client.get(reverse("register", kwargs={"slug": event.slug})).content.decode()
    assert 'value="Кузнецов"' in form and 'value="alexey.k@club.example"' in form  # filled in for them
    with smtp_server():
        post(client, event, last_name="Кузнецов", first_name="Алексей", email="alexey.phone@example.org")
    reg = Registration.objects.get()
    assert reg.signed_in_as == known
    assert reg.status == RegistrationStatus.APPROVED and reg.entry.player == known
    known.refresh_from_db()
    assert (known.email, known.user_id) == ("alexey.k@club.example", account.pk)


def test_an_account_applying_under_another_name_proves_nothing(client):
    event = TournamentFactory(registration_open=True, registration_approval=True)
    known, account = _player5()
    namesake = PlayerFactory(last_name="Смирнова", first_name="Ольга", email="")
    client.force_login(account)  # player5 enters a friend who shares a stored player's name
    with smtp_server():
        post(client, event, last_name="Смирнова", first_name="Ольга", email="olga@example.org")
    reg = Registration.objects.get()
    assert reg.signed_in_as is None
    organiser = OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user
    with pytest.raises(registration.RegistrationRefused) as refused:
        registration.approve(reg, organiser)
    assert refused.value.problem.code == "identity.choose"
    assert not namesake.entries.exists() and not known.entries.exists()


def test_the_approval_list_says_the_applicant_was_logged_in_as_the_player(client):
    event = TournamentFactory(registration_open=True, registration_approval=True)
    known, account = _player5()
    client.force_login(account)
    with smtp_server():
        post(client, event, last_name="Кузнецов", first_name="Алексей", email="alexey.k@club.example")
    organiser = OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user
    client.force_login(organiser)
    page = client.get(reverse("manage-registrations", kwargs={"slug": event.slug}), HTTP_ACCEPT_LANGUAGE="en")
    assert f"applied logged in as this player (#{known.pk})" in page.content.decode()
    reg = Registration.objects.get()
    registration.approve(reg, organiser)
    reg.refresh_from_db()
    assert reg.entry.player == known
