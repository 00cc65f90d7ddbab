"""Simultaneous writes on the embedded SQLite default: every one saved or refused by the rules, none a 503.

Issue 45: two registration posts at once, or two approvals of one application at once,
on ``make run``'s SQLite answered one of them 503 in well under a second ("The database
did not answer, so nothing was saved") — SQLite's deferred transactions give up at once
when a reader must become a writer, whatever the busy timeout. A real ``runserver``
(:mod:`tests.zarik.hall_server`) on its own file takes the posts here, several at the
same instant, from visitors with their own sessions.
"""

from __future__ import annotations

import sqlite3
import threading

import pytest

from tests.zarik.hall_server import EMBEDDED_ONLY, Answer, Browser, HallServer

pytestmark = [EMBEDDED_ONLY, pytest.mark.long]

SEED = """
from django.contrib.auth.models import User
from tests.factories import OfficialFactory, TournamentFactory
from tournaments.models import OfficialRole, Registration
event = TournamentFactory(slug="hall", registration_open=True, registration_approval=True)
organiser = User.objects.create_user("organiser", password="hall-organiser-pass")
OfficialFactory(tournament=event, user=organiser, role=OfficialRole.ORGANISER)
for n in range(ROUNDS):
    Registration.objects.create(tournament=event, last_name=f"Заявкин{n}", first_name="Пётр",
                                email=f"seed{n}@example.org")
""".replace("ROUNDS", "3")

AT_ONCE = 4  # visitors posting at the same instant
ROUNDS = 3  # how many times the burst is repeated (a race may be missed once)
REGISTER = "/t/hall/register/"


def _at_once(calls) -> list[Answer]:
    """Run the calls in threads released together, so the requests overlap on the server."""
    gate = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)

    def run(i, call):
        gate.wait()
        answers[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return answers  # type: ignore[return-value]


def _rows(server: HallServer, sql: str) -> list[tuple]:
    with sqlite3.connect(server.db_file) as db:
        return db.execute(sql).fetchall()


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    with HallServer(tmp_path_factory.mktemp("hall"), SEED) as server:
        yield server


def _application(n: int) -> dict[str, str]:
    return {"last_name": f"Игроков{n}", "first_name": "Иван", "last_name_latin": f"Igrokov{n}",
            "first_name_latin": "Ivan", "email": f"ivan{n}@example.org", "club_name": "Пермь",
            "category": "4", "rating": "1500"}


def test_simultaneous_registrations_are_all_saved_and_none_is_told_nothing_was_saved(hall):
    answers: list[Answer] = []
    for burst in range(ROUNDS):
        visitors = [Browser(hall.base) for _ in range(AT_ONCE)]
        tokens = [v.token(REGISTER) for v in visitors]
        answers += _at_once([
            (lambda v=v, t=t, n=burst * AT_ONCE + i: v.post(REGISTER, _application(n), t))
            for i, (v, t) in enumerate(zip(visitors, tokens, strict=True))])
    statuses = [a.status for a in answers]
    assert statuses == [200] * len(answers), (statuses, hall.log())
    assert not any("did not answer" in a.body for a in answers)
    saved = _rows(hall, "SELECT count(*) FROM tournaments_registration WHERE last_name LIKE 'Игроков%'")
    assert saved == [(AT_ONCE * ROUNDS,)]
    assert "database is locked" not in hall.log()


def _organiser(hall: HallServer) -> tuple[Browser, str]:
    browser = Browser(hall.base)
    token = browser.token("/accounts/login/")
    answer = browser.post("/accounts/login/", {"username": "organiser", "password": "hall-organiser-pass"}, token)
    assert answer.status == 200 and "sessionid" in {c.name for c in browser.jar}, answer.body[:300]
    return browser, browser.token("/t/hall/manage/registrations/")


def test_two_approvals_of_one_application_at_once_enter_the_player_once_and_neither_is_a_503(hall):
    desks = [_organiser(hall) for _ in range(2)]  # two organisers' phones, one account
    pending = [pk for (pk,) in _rows(hall, "SELECT id FROM tournaments_registration WHERE email LIKE 'seed%' "
                                           "ORDER BY id")]
    for pk in pending:
        path = f"/t/hall/manage/registrations/{pk}/approve/"
        answers = _at_once([(lambda b=b, t=t, p=path: b.post(p, {}, t)) for b, t in desks])
        assert [a.status for a in answers] == [200, 200], ([a.status for a in answers], hall.log())
        assert not any("did not answer" in a.body for a in answers)
        [(status, entry)] = _rows(hall, f"SELECT status, entry_id FROM tournaments_registration WHERE id = {pk}")
        assert status == "approved" and entry is not None
    entries = _rows(hall, "SELECT count(*) FROM tournaments_entry WHERE tournament_id = "
                          "(SELECT id FROM tournaments_tournament WHERE slug = 'hall')")
    assert entries == [(len(pending),)]  # each approved once: no duplicate entry
    assert "database is locked" not in hall.log()
