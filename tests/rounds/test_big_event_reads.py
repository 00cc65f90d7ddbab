"""A big Swiss's bulk reads (issue 32): fixed query counts, and no bulk read carries the explanation.

The round's pairing explanation grows with the field (166 KB at 2,000 players). As a
column of the round it rode along with every match read with its round, and a
10,000-player round ran PostgreSQL out of memory. These tests pair real Swiss
events of a few hundred players through the round manager, then check that:

- every step an event repeats (pair, publish, the emails, the public pages, the API,
  a report and its confirmation, the workbook, the archive) costs the same number of
  queries at 40 and at 240 players;
- no query of those steps reads the explanation whole (only the round page and the
  API's round show it; the standings read its byes alone);
- the rows a round's match read returns weigh the same with a 1 MB explanation.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Player
from scoring import workflow
from scoring.archive import backup
from tournaments.events import Event
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import (
    Entry,
    Match,
    Official,
    OfficialRole,
    ResultStatus,
    RoundExplanation,
    Tournament,
)
from tournaments.notifications import event_emails
from tournaments.notifications import tasks as notification_tasks
from tournaments.public import paging
from tournaments.rounds import flow
from tournaments.rounds import pairing_manager as pm

SIZES = (40, 240)
#: The explanation read whole: its table's ``data`` column not followed by a key
#: (PostgreSQL's ``-> 'byes'``, SQLite's ``JSON_EXTRACT(…, '$."byes"')``).
WHOLE_EXPLANATION = re.compile(r'"tournaments_roundexplanation"\."data"(?!\s*(->|,\s*\'\$))')


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("director", "director@example.org", "x")


def served_swiss(size: int, director, played: int = 2) -> Tournament:
    """``size`` players who all take emails; rounds 1..``played`` paired, published, played, closed."""
    rng = random.Random(size)
    t = Tournament.objects.create(
        name=f"Swiss {size}", slug=f"swiss-{size}", public=True, system="swiss", match_length=5,
        rounds_planned=7, starts_on="2026-03-01", rated=True,
    )  # fmt: skip
    Official.objects.create(tournament=t, user=director, role=OfficialRole.ORGANISER)
    players = Player.objects.bulk_create(
        Player(last_name=f"Игроков{i:04d}", first_name="Пётр", last_name_latin=f"Igrokov{i:04d}",
               first_name_latin="Petr", email=f"p{size}-{i}@example.org")
        for i in range(size)
    )  # fmt: skip
    Entry.objects.bulk_create(Entry(tournament=t, player=p, draw_number=i + 1) for i, p in enumerate(players))
    for _ in range(played):
        (rnd,) = pm.generate_next(t, user=director)
        pm.publish_round(rnd, user=director)
        matches = list(rnd.matches.filter(entry_b__isnull=False))
        for m in matches:
            side = rng.choice("ab")
            m.score_a, m.score_b = (5, 2) if side == "a" else (2, 5)
            m.winner, m.result_status = side, ResultStatus.CONFIRMED
        Match.objects.bulk_update(matches, ["score_a", "score_b", "winner", "result_status"])
        assert flow.close(rnd, director) == flow.CLOSED
    return t


def _steps(t: Tournament, director) -> dict[str, list[str]]:
    """Every repeated step of the event once; the SQL each sent."""
    sql: dict[str, list[str]] = {}
    client = Client()

    def step(name, action):
        with CaptureQueriesContext(connection) as queries:
            out = action()
        sql[name] = [q["sql"] for q in queries.captured_queries]
        return out

    (rnd,) = step("generate", lambda: pm.generate_next(t, user=director))
    step("publish", lambda: pm.publish_round(rnd, user=director))
    data = {"round": rnd.pk, "number": rnd.number}
    ranges = event_emails.batches(Event("round.published", t.pk, data))
    first = {**data, "tables": list(ranges[0])} if ranges else data
    mail.outbox = []
    step("emails of one batch", lambda: notification_tasks.send_notifications.run("round.published", t.pk, first))
    assert mail.outbox, "the batch sent its players' emails"
    step("recipients' matches", lambda: event_emails._matches(round_id=rnd.pk))
    for name, url in (
        ("pairings", f"/t/{t.slug}/pairings/"),
        ("pairings search", f"/t/{t.slug}/pairings/?q=Igrokov0007"),
        ("standings", f"/t/{t.slug}/standings/"),
        ("API standings", f"/api/tournaments/{t.slug}/standings/?page=2&page_size=20"),
        ("hall", f"/t/{t.slug}/hall/frame/"),
    ):
        response = step(name, lambda url=url: client.get(url))
        assert response.status_code == 200, (url, response.status_code)
    users = get_user_model()
    match = Match.objects.filter(round=rnd, entry_b__isnull=False).select_related("entry_a__player", "entry_b__player").first()
    one, other = users.objects.create_user(f"a-{t.pk}"), users.objects.create_user(f"b-{t.pk}")
    Player.objects.filter(pk=match.entry_a.player_id).update(user=one)
    Player.objects.filter(pk=match.entry_b.player_id).update(user=other)
    report = step("report", lambda: workflow.submit_result(match.pk, one, version=match.version, final=(5, 1)))
    match.refresh_from_db()
    step("confirm", lambda: workflow.confirm_result(match.pk, report.pk, other, version=match.version))
    step("standings after the confirmation", lambda: client.get(f"/t/{t.slug}/standings/"))
    step("workbook", lambda: build_workbook(t, io.BytesIO(), "ru"))
    step("archive", lambda: backup.export(t, io.StringIO()))
    return sql


@pytest.mark.django_db
def test_a_bigger_field_costs_no_more_queries_and_no_step_reads_the_explanation(director, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    counts = {}
    for size in SIZES:
        t = served_swiss(size, director)
        sql = _steps(t, director)
        counts[size] = {name: len(queries) for name, queries in sql.items()}
        for name, queries in sql.items():
            if name == "archive":
                continue  # the archive holds every row of the tournament, explanations included
            whole = [q for q in queries if WHOLE_EXPLANATION.search(q)]
            assert not whole, f"{name} read the explanation whole at {size} players: {whole[0][:300]}"
    small, big = SIZES
    if connection.vendor == "sqlite":
        # SQLite caps a statement's parameters, so Django splits the round's bulk inserts
        # into several statements there (one on PostgreSQL, where this is checked).
        for size in SIZES:
            counts[size].pop("generate")
    assert counts[small] == counts[big], {k: (counts[small][k], counts[big][k]) for k in counts[big]
                                          if counts[small][k] != counts[big][k]}  # fmt: skip


@pytest.mark.django_db
def test_a_rounds_match_read_weighs_the_same_with_a_megabyte_of_explanation(director):
    """What the database hands over for a round's matches (as the emails and the pages read
    them) does not grow with the explanation: it is not in those rows at all."""
    t = served_swiss(60, director, played=1)
    rnd = t.rounds.get()

    def transferred() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            matches = event_emails._matches(round_id=rnd.pk)
            assert matches[0].round.number == 1
        size = 0
        with connection.cursor() as cursor:
            for q in queries.captured_queries:
                cursor.execute(q["sql"])
                size += sum(len(str(v)) for row in cursor.fetchall() for v in row)
        return len(queries.captured_queries), size

    before = transferred()
    rnd.store_explanation({**rnd.explanation, "padding": "x" * 1_000_000})
    assert len(RoundExplanation.objects.get(round=rnd).data["padding"]) == 1_000_000
    assert transferred() == before


@pytest.mark.django_db
def test_a_big_rounds_emails_go_in_batches_and_each_player_gets_one(director, settings, monkeypatch):
    """Publishing only queues: the event's task splits the round into batches of tables,
    each a task of its own, and every player is written to exactly once."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    monkeypatch.setattr(event_emails, "BATCH_TABLES", 4)
    t = served_swiss(20, director, played=0)
    (rnd,) = pm.generate_next(t, user=director)
    queued = []
    real = notification_tasks.later
    monkeypatch.setattr(notification_tasks, "later", lambda task, *args, **kw: queued.append(args) or real(task, *args, **kw))
    mail.outbox = []
    notification_tasks.send_notifications.run("round.published", t.pk, {"round": rnd.pk, "number": 1})
    assert [a[2]["tables"] for a in queued] == [[1, 4], [5, 8], [9, 10]]
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"p20-{i}@example.org" for i in range(20))


@pytest.mark.django_db
def test_a_player_finds_their_table_among_many_pages_by_name_or_number(director, monkeypatch):
    monkeypatch.setattr(paging, "PAGE_ROWS", 5)
    t = served_swiss(40, director, played=1)
    (rnd,) = pm.generate_next(t, user=director)
    pm.publish_round(rnd, user=director)
    client = Client()
    first = client.get(f"/t/{t.slug}/pairings/").content.decode()
    assert first.count("<tr") == 1 + 5  # the head and one page of tables
    assert "?page=4" in first and "aria-current=\"page\"" in first
    entry = Entry.objects.get(tournament=t, draw_number=33)
    table = Match.objects.filter(round=rnd).filter(entry_a=entry).first() or Match.objects.get(round=rnd, entry_b=entry)
    page = (table.table - 1) // 5 + 1
    for query in ("33", "Igrokov0032"):
        body = client.get(f"/t/{t.slug}/pairings/", {"q": query}).content.decode()
        assert f"page={page}" in body and 'class="found"' in body, query
    standings = client.get(f"/t/{t.slug}/standings/", {"q": "Игроков0032"}).content.decode()
    assert 'class="found"' in standings or 'class="shared found"' in standings
    # Nobody found: a number is said to be a draw number, a word part of a name (RU and EN).
    for url in (f"/t/{t.slug}/pairings/", f"/t/{t.slug}/standings/"):
        by_number = client.get(url, {"q": "999"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Nobody with the draw number 999" in by_number and "whose name contains" not in by_number
        by_name = client.get(url, {"q": "Nemo"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Nobody whose name contains “Nemo”" in by_name and "draw number" not in by_name
        russian = client.get(url, {"q": "999"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "с номером по жеребьёвке 999" in russian
    assert client.get(f"/t/{t.slug}/pairings/", {"page": "x"}).status_code == 400
    assert client.get(f"/t/{t.slug}/standings/", {"page": "99"}).status_code == 200  # the last page


@pytest.mark.django_db
def test_the_api_standings_come_a_page_at_a_time_with_links_to_the_next(director):
    t = served_swiss(40, director, played=2)
    client = Client()
    url = f"/api/tournaments/{t.slug}/standings/"
    whole = client.get(url).json()  # 40 rows: one default page (100)
    assert whole["count"] == 40 and whole["next"] is None and whole["previous"] is None
    order = [r["entry"] for r in whole["sections"][0]["rows"]]
    assert len(order) == 40 and whole["sections"][0]["row_count"] == 40
    seen, pages = [], []
    response = client.get(url, {"page_size": 15})
    while True:
        body = response.json()
        assert body["count"] == 40 and body["tournament"] == t.slug and body["rounds"] == [1, 2]
        (section,) = body["sections"]
        assert section["row_count"] == 40 and section["metrics"]
        seen += [r["entry"] for r in section["rows"]]
        pages.append(len(section["rows"]))
        links = dict((rel, link) for link, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response["Link"]))
        assert "page=3" in links["last"] and ("prev" in links) == (body["previous"] is not None)
        if body["next"] is None:
            assert "next" not in links
            break
        assert links["next"] == body["next"]
        response = client.get(body["next"])
    assert pages == [15, 15, 10] and seen == order  # the same order as the whole table, each row once
    places = [r["place"] for r in client.get(url, {"page_size": 15, "page": 2}).json()["sections"][0]["rows"]]
    assert places == [r["place"] for r in whole["sections"][0]["rows"]][15:30]  # the places of the whole table
    past = client.get(url, {"page_size": 15, "page": 4})
    assert past.status_code == 404 and past["Content-Type"] == "application/problem+json"
