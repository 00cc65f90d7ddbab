"""The Excel export: from the shell, from the web page (eager Celery) and through a real worker.

Every check reads the written workbook back with openpyxl: the book's example
must come out with the book's totals and final order.
"""

from __future__ import annotations

import io
import os
import time
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from openpyxl import load_workbook

from scoring.rules.errors import Problem
from tests.factories import swiss_event
from tournaments.exports import sheet_name
from tournaments.jobs import export_tasks
from tournaments.jobs import progress as jobs
from tournaments.models import Match, Tournament
from zarik.management.demo import BOOK_SLUG

pytestmark = pytest.mark.usefixtures("fresh_cache")

BOOK_TOTALS = [21, 22, 27, 26, 22, 19]
BOOK_ORDER = ["Сидоров", "Белов", "Петров", "Серов", "Иванов", "Чернов"]
BOOK_ORDER_EN = ["Sidorov", "Belov", "Petrov", "Serov", "Ivanov", "Chernov"]




def row_starting(ws, first: str) -> list:
    for row in ws.iter_rows(values_only=True):
        if row and row[0] == first:
            return list(row)
    raise AssertionError(f"no row starting with {first!r} on sheet {ws.title}")


def standings_names(ws, header: str) -> list[str]:
    rows = list(ws.iter_rows(values_only=True))
    start = next(i for i, r in enumerate(rows) if r and r[0] == header)
    columns = rows[start]
    name_col = columns.index("Игрок" if header == "Место" else "Player")
    return [r[name_col] for r in rows[start + 1 :] if r and r[name_col]]


def assert_book_workbook(source, language: str = "ru") -> None:
    wb = load_workbook(source)
    names = [sheet_name(key, language) for key in ("standings", "crosstable", "pairings", "players")]
    assert wb.sheetnames == names
    total, place = ("Итого:", "Место") if language == "ru" else ("Total:", "Place")
    totals = row_starting(wb[names[1]], total)
    assert totals[2:8] == BOOK_TOTALS
    assert row_starting(wb[names[1]], place)[2:8] == [5, 3, 1, 2, 4, 6]
    order = BOOK_ORDER if language == "ru" else BOOK_ORDER_EN
    assert standings_names(wb[names[0]], place) == order


# --- the management command ---------------------------------------------------------------


def test_export_standings_command_reproduces_the_book(book, tmp_path):
    out = tmp_path / "book.xlsx"
    call_command("export_standings", BOOK_SLUG, str(out), stdout=io.StringIO())
    assert_book_workbook(out, "ru")


def test_export_standings_command_in_english(book, tmp_path):
    out = tmp_path / "book-en.xlsx"
    call_command("export_standings", BOOK_SLUG, str(out), "--lang", "en", stdout=io.StringIO())
    assert_book_workbook(out, "en")


def test_export_standings_command_refuses_bad_input_with_a_message(book, tmp_path):
    with pytest.raises(CommandError, match="no-such-event.*book-crosstable"):
        call_command("export_standings", "no-such-event", str(tmp_path / "x.xlsx"), "--lang", "en")
    with pytest.raises(CommandError, match="не найден"):
        call_command("export_standings", "no-such-event", str(tmp_path / "x.xlsx"))
    with pytest.raises(CommandError, match=r"\.xlsx"):
        call_command("export_standings", BOOK_SLUG, str(tmp_path / "x.csv"), "--lang", "en")
    with pytest.raises(CommandError, match="no such directory"):
        call_command("export_standings", BOOK_SLUG, str(tmp_path / "a" / "b.xlsx"), "--lang", "en")
    with pytest.raises(CommandError):
        call_command("export_standings", BOOK_SLUG, str(tmp_path / "x.xlsx"), "--lang", "de")
    assert not list(tmp_path.iterdir())


# --- the web page with the task run eagerly -------------------------------------------------


def start_export(client, tournament: Tournament, **data):
    response = client.post(reverse("public-export", kwargs={"slug": tournament.slug}), data)
    assert response.status_code == 302, response.content[:500]
    return response["Location"]


def test_web_export_runs_the_task_and_offers_the_download(client, book, media_root):
    form = client.get(reverse("public-export", kwargs={"slug": book.slug}))
    assert form.status_code == 200 and 'name="lang"' in form.content.decode()
    progress_url = start_export(client, book, lang="ru")
    page = client.get(progress_url)
    assert page.status_code == 200 and "<progress" in page.content.decode()
    status = client.get(progress_url + "status/").json()
    assert status["state"] == "SUCCESS" and status["percent"] == 100
    assert status["download"] in page.content.decode()  # no JavaScript needed for the link
    download = client.get(status["download"])
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="book-crosstable-ru.xlsx"'
    assert_book_workbook(io.BytesIO(b"".join(download.streaming_content)), "ru")
    stored = list((media_root / "jobs" / book.slug).glob("*.xlsx"))
    assert len(stored) == 1  # no temporary file left behind


def test_export_language_follows_the_reader(client, book, media_root):
    client.cookies["django_language"] = "en"
    status = client.get(start_export(client, book) + "status/").json()
    download = client.get(status["download"])
    assert_book_workbook(io.BytesIO(b"".join(download.streaming_content)), "en")


def test_the_same_export_is_reused_until_something_changes(client, book, media_root):
    first = start_export(client, book, lang="ru")
    assert start_export(client, book, lang="ru") == first
    assert start_export(client, book, lang="en") != first
    match = Match.objects.filter(round__tournament=book).first()
    match.score_a, match.score_b = match.score_b, match.score_a
    match.winner = "a" if match.score_a > match.score_b else "b"
    match.save()
    assert start_export(client, book, lang="ru") != first


def test_bad_export_requests_get_clear_answers(client, book, media_root):
    base = reverse("public-export", kwargs={"slug": book.slug})
    bad = client.post(base, {"lang": "klingon"})
    assert bad.status_code == 400 and "klingon" in bad.content.decode()
    job = uuid.uuid4()
    status = client.get(f"{base}{job}/status/")
    assert status.status_code == 404 and status.json()["state"] == "UNKNOWN"
    assert client.get(f"{base}{job}/").status_code == 404
    assert client.get(f"{base}{job}/download/").status_code == 404
    assert client.get(f"{base}not-a-uuid/").status_code == 404
    jobs.write_status(book.slug, str(job), jobs.QUEUED, done=0, total=0)
    assert client.get(f"{base}{job}/status/").json()["state"] == "QUEUED"
    assert client.get(f"{base}{job}/download/").status_code == 404  # not ready yet
    assert client.get("/t/no-such-event/export/").status_code == 404


def test_unreleased_tournament_cannot_be_exported_by_outsiders(client, book, media_root):
    book.public = False
    book.save()
    assert client.get(reverse("public-export", kwargs={"slug": book.slug})).status_code == 404
    response = client.post(reverse("public-export", kwargs={"slug": book.slug}), {"lang": "ru"})
    assert response.status_code == 404


# --- the task itself ------------------------------------------------------------------------


@pytest.mark.django_db
def test_task_reports_progress_until_done(media_root, monkeypatch):
    t = swiss_event(120, slug="export-120", rounds_done=1, open_round=False)
    seen: list[tuple[str, int, int]] = []
    original = jobs.write_status

    def spy(slug, job, state, **extra):
        seen.append((state, extra.get("done", 0), extra.get("total", 0)))
        original(slug, job, state, **extra)

    monkeypatch.setattr(jobs, "write_status", spy)
    job = str(uuid.uuid4())
    result = export_tasks.export_standings_task.apply(args=(t.pk, "en", job), task_id=job).get()
    assert result["state"] == "SUCCESS"
    progress = [(done, total) for state, done, total in seen if state == "PROGRESS" and total]
    assert len(progress) > 5
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert progress[-1][0] == progress[-1][1]
    assert seen[-1][0] == "SUCCESS"
    wb = load_workbook(media_root / result["file"])
    assert wb["Standings"].max_row >= 120


@pytest.mark.django_db
def test_the_workbook_streams_its_rows_and_reads_back_whole(monkeypatch):
    """Written in openpyxl's write-only mode (rows go to the file as they are made: a
    100,000-player workbook in bounded memory, issue 50), and every player is in it."""
    from tournaments.exports import workbook

    made = []
    original = workbook.Workbook

    def spy(*args, **kwargs):
        book = original(*args, **kwargs)
        made.append(book)
        return book

    monkeypatch.setattr(workbook, "Workbook", spy)
    t = swiss_event(60, slug="export-60", rounds_done=2, open_round=False)
    out = io.BytesIO()
    export_tasks.build_workbook(t, out, "en")
    assert [book.write_only for book in made] == [True]
    wb = load_workbook(io.BytesIO(out.getvalue()))
    assert len(standings_names(wb["Standings"], "Place")) == 60
    players = {row[1] for row in wb["Players"].iter_rows(values_only=True) if row and isinstance(row[0], int)}
    assert len(players) == 60


@pytest.mark.django_db
def test_task_for_a_vanished_tournament_fails_cleanly(media_root):
    result = export_tasks.export_standings_task.apply(args=(987654, "ru", str(uuid.uuid4()))).get()
    assert result["state"] == "FAILURE"
    [problem] = [Problem.from_data(p) for p in result["problems"]]
    assert problem.code == "job.tournament_missing" and "987654" in problem.message("ru")


# --- through a real Celery worker -------------------------------------------------------------


@pytest.mark.celery_worker
def test_export_through_a_real_worker(transactional_db, media_root, celery_worker_app, client):
    if connection.vendor != "postgresql":
        pytest.skip(
            "the worker is another process and must see the test database: PostgreSQL only "
            "(the SQLite test database lives in this process's memory)"
        )
    from celery.result import AsyncResult

    from zarik.management.demo import _user, load_book_crosstable

    book = load_book_crosstable(_user("referee"))
    progress_url = start_export(client, book, lang="ru")
    job = progress_url.rstrip("/").rsplit("/", 1)[1]
    deadline = time.monotonic() + 60
    status = client.get(progress_url + "status/").json()
    while status["state"] not in ("SUCCESS", "FAILURE") and time.monotonic() < deadline:
        time.sleep(0.3)
        status = client.get(progress_url + "status/").json()
    assert status["state"] == "SUCCESS", status
    # Celery's own record says a worker ran it (eager runs store nothing).
    assert AsyncResult(job, app=celery_worker_app).get(timeout=30)["state"] == "SUCCESS"
    download = client.get(status["download"])
    assert_book_workbook(io.BytesIO(b"".join(download.streaming_content)), "ru")


def test_old_export_files_are_pruned_when_a_new_export_starts(client, book, media_root):
    folder = media_root / "jobs" / book.slug
    folder.mkdir(parents=True)
    old, recent = folder / "old.xlsx", folder / "recent.xlsx"
    old.write_bytes(b"x")
    recent.write_bytes(b"x")
    day_ago = time.time() - jobs.KEEP_SECONDS - 60
    os.utime(old, (day_ago, day_ago))
    start_export(client, book, lang="ru")
    assert not old.exists() and recent.exists()
