"""Email notifications through a real local SMTP server: who, what, which language, opt-out."""

from __future__ import annotations

import re

import pytest

from scoring import workflow
from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.smtp import Inbox, smtp_server
from tournaments.access.private_links import LinkHolder, path_for
from tournaments.events import Event
from tournaments.models import OfficialRole
from tournaments.notifications import event_emails as notifications
from tournaments.rounds.pairing_manager.lifecycle import publish_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t = TournamentFactory(name="Кубок Зарика", slug="kubok", match_length=7)
    rnd = RoundFactory(tournament=t, draft=True)
    ru = PlayerFactory(last_name="Иванов", first_name="Пётр", email="ivanov@example.org")
    en = PlayerFactory(last_name="Smith", first_name="John", email="smith@example.org", language="en")
    a = EntryFactory(tournament=t, player=ru, draw_number=1)
    b = EntryFactory(tournament=t, player=en, draw_number=2)
    match = MatchFactory(round=rnd, table=4, entry_a=a, entry_b=b)
    return t, rnd, match


def opt_out_link(body: str) -> str:
    return re.search(r"http://\S+/notifications/\S+/", body).group(0)


def test_round_published_tells_each_player_table_opponent_length_in_their_language(
    event, django_capture_on_commit_callbacks
):
    t, rnd, match = event
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    [ru] = inbox.to("ivanov@example.org")
    [en] = inbox.to("smith@example.org")
    assert ru["Subject"].strip() == "Тур 1: ваша пара · Кубок Зарика"
    assert en["Subject"].strip() == "Round 1: your pairing · Кубок Зарика"
    ru_body, en_body = Inbox.body(ru), Inbox.body(en)
    assert "Стол: 4" in ru_body and "Соперник: Smith John" in ru_body and "до 7 очков" in ru_body
    opponent = match.entry_a.player.display_name("en")  # an English letter names people in Latin letters
    assert "Table: 4" in en_body and f"Opponent: {opponent}" in en_body and "Match to 7 points" in en_body
    assert "/p/" in en_body  # the private link
    assert en["List-Unsubscribe"].strip().strip("<>") == opt_out_link(en_body)


def test_the_opt_out_link_stops_further_emails(event, client, django_capture_on_commit_callbacks):
    t, rnd, match = event
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    link = opt_out_link(Inbox.body(inbox.to("smith@example.org")[0]))
    path = link.split("//", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200 and 'id="notify-off"' in page.content.decode()
    client.post("/" + path)
    match.entry_b.player.refresh_from_db()
    assert match.entry_b.player.email_notifications is False
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.submit_result(match.pk, LinkHolder(match.entry_a), version=match.version, final=(7, 3))
    assert inbox.to("smith@example.org") == []
    assert client.get("/notifications/forged/").status_code == 404


def test_result_reported_asks_the_opponent_to_confirm(event, django_capture_on_commit_callbacks):
    t, rnd, match = event
    publish_round(rnd)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.submit_result(match.pk, LinkHolder(match.entry_b), version=match.version, final=(2, 7))
    assert inbox.to("smith@example.org") == []  # the reporter is not asked
    [mail] = inbox.to("ivanov@example.org")
    assert mail["Subject"].strip() == "Подтвердите результат · Кубок Зарика"
    body = Inbox.body(mail)
    assert "Smith John" in body and "2:7" in body


def test_a_dispute_reaches_the_organisers_and_the_ruling_both_players(
    event, django_capture_on_commit_callbacks
):
    t, rnd, match = event
    director = UserFactory(email="director@example.org")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    publish_round(rnd)
    result = workflow.submit_result(match.pk, LinkHolder(match.entry_a), version=match.version, final=(7, 1))
    match.refresh_from_db()
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        dispute = workflow.dispute_result(
            match.pk, result.pk, LinkHolder(match.entry_b), version=match.version, reason="Было 7:5"
        )
    [mail] = inbox.to("director@example.org")
    assert "Было 7:5" in Inbox.body(mail) and "/t/kubok/disputes/" in Inbox.body(mail)
    match.refresh_from_db()
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.rule_dispute(
            dispute.pk, director, outcome="replace", ruling="Счёт по бланку 7:5", version=match.version,
            final=(7, 5),
        )
    assert [len(inbox.to(a)) for a in ("ivanov@example.org", "smith@example.org")] == [1, 1]
    en = Inbox.body(inbox.to("smith@example.org")[0])
    assert "Счёт по бланку 7:5" in en and "7:5" in en


def test_players_without_an_email_get_nothing_and_nothing_breaks(django_capture_on_commit_callbacks):
    rnd = RoundFactory(draft=True)
    MatchFactory(round=rnd)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd)
    assert inbox.messages == []


def test_a_hall_without_addresses_costs_no_email_task_until_a_player_gives_one(event):
    t, rnd, match = event
    reported = Event("result.reported", t.pk, {"match": match.pk, "side": "a"})
    for entry in (match.entry_a, match.entry_b):
        entry.player.email = ""
        entry.player.save()
    assert not notifications.worth_a_task(reported)  # nobody to write to: no task at all
    assert notifications.worth_a_task(Event("round.finished", t.pk, {"round": rnd.pk}))  # organisers
    match.entry_b.player.email = "smith@example.org"
    match.entry_b.player.save()  # the cached answer goes with the tournament's version
    assert notifications.worth_a_task(reported)
    with smtp_server() as inbox:
        assert notifications.send_for(reported) == 1
    assert inbox.messages[0]["To"] == "smith@example.org"


def test_the_private_page_turns_emails_off_and_on(event, client):
    t, rnd, match = event
    entry = match.entry_a
    page = client.get(path_for(entry))
    assert 'id="notifications-off"' in page.content.decode()
    client.post(path_for(entry) + "notifications/")
    entry.player.refresh_from_db()
    assert entry.player.email_notifications is False
    client.post(path_for(entry) + "notifications/", {"on": "1"})
    entry.player.refresh_from_db()
    assert entry.player.email_notifications is True


def test_the_organisers_hear_when_a_round_is_ready_to_close(django_capture_on_commit_callbacks):
    t = TournamentFactory(name="Кубок", slug="ready", match_length=5)
    director = UserFactory(email="director@example.org")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    rnd = RoundFactory(tournament=t, draft=True)
    first, second = (
        MatchFactory(round=rnd, table=n, entry_a=EntryFactory(tournament=t), entry_b=EntryFactory(tournament=t))
        for n in (1, 2)
    )
    publish_round(rnd)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.submit_result(first.pk, LinkHolder(first.entry_a), version=first.version, final=(5, 1))
    assert inbox.to("director@example.org") == []  # table 2 has not reported yet
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.submit_result(second.pk, LinkHolder(second.entry_b), version=second.version, final=(2, 5))
    [mail] = inbox.to("director@example.org")
    assert mail["Subject"].strip() == "Тур 1 готов к закрытию · Кубок"
    assert "ждут подтверждения: 2" in Inbox.body(mail) and "/t/ready/desk/" in Inbox.body(mail)
    second.refresh_from_db()
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):  # a re-report says nothing new
        workflow.submit_result(second.pk, LinkHolder(second.entry_b), version=second.version, final=(3, 5))
    assert inbox.to("director@example.org") == []
