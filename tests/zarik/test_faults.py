"""Faults survived (issue 17, item 6): a worker killed mid-export, Redis down, the database
connection lost mid-request, two directors on one round (the races themselves are in
tests/test_concurrency.py, on PostgreSQL).

Each test makes the fault real where it can — a process that really died, a cache on a port
where nothing listens, a database session really terminated on PostgreSQL — and checks what
the user sees and what the database holds afterwards.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.core.cache import cache
from django.db import OperationalError, connection
from django.test import override_settings
from django.urls import reverse

from scoring.models import Result
from tests.factories import MatchFactory, OfficialFactory, PlayerFactory, UserFactory
from tournaments.jobs import export_tasks
from tournaments.jobs import progress as jobs
from tournaments.models import AuditEntry, Match, ResultStatus, Round, RoundStatus

NOWHERE = "redis://127.0.0.1:9/1"  # the discard port: nothing answers there


def _dead_pid() -> int:
    """The id of a process that has already exited (a worker killed with SIGKILL looks the same)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _export(client, tournament) -> str:
    response = client.post(reverse("public-export", kwargs={"slug": tournament.slug}), {"lang": "en"})
    assert response.status_code == 302
    return response["Location"]


# --- a worker killed during an export ---------------------------------------------------------


@pytest.mark.django_db
def test_a_worker_killed_mid_export_fails_the_job_serves_nothing_and_a_retry_works(client, book, media_root):
    client.cookies["django_language"] = "en"
    first = _export(client, book)
    job = first.rstrip("/").rsplit("/", 1)[1]
    final = export_tasks.workbook_path(book.slug, job)
    # What a worker killed half-way leaves behind: its status "in progress" under its (now
    # dead) process, a half-written temporary workbook, no finished file.
    final.unlink()
    half = final.with_name(f".tmp-{job}.xlsx")
    half.write_bytes(b"PK\x03\x04 half a workbook")
    jobs.write_status(book.slug, job, jobs.PROGRESS, done=3, total=10, pid=_dead_pid())

    status = client.get(first + "status/").json()
    assert status["state"] == "FAILURE"
    assert "worker failed" in status["error"] and "nothing was written" in status["error"]
    assert client.get(first + "download/").status_code == 404  # the half file is never offered
    assert jobs.read_status(book.slug, job)["state"] == jobs.FAILURE  # marked for good

    again = _export(client, book)  # the same button: a new job, not the dead one
    assert again != first
    assert client.get(again + "status/").json()["state"] == "SUCCESS"
    assert client.get(again + "download/").status_code == 200


@pytest.mark.django_db
def test_a_live_worker_is_not_mistaken_for_a_dead_one(book, media_root):
    job = jobs.start(book.slug)
    jobs.write_status(book.slug, job, jobs.PROGRESS, done=1, total=10)  # this very process
    assert not jobs.abandoned(book.slug, job, jobs.read_status(book.slug, job))


@pytest.mark.django_db
def test_a_silent_worker_on_another_host_is_given_up_after_the_stale_time(book, media_root, monkeypatch):
    job = jobs.start(book.slug)
    jobs.write_status(book.slug, job, jobs.PROGRESS, done=1, total=10, host="elsewhere", pid=1)
    status = jobs.read_status(book.slug, job)
    assert not jobs.abandoned(book.slug, job, status)
    monkeypatch.setattr(jobs, "STALE_SECONDS", -1)
    assert jobs.abandoned(book.slug, job, status)


# --- Redis down -------------------------------------------------------------------------------


@pytest.fixture
def redis_down():
    with override_settings(
        CACHES={"default": {"BACKEND": "zarik.cache.ResilientRedisCache", "LOCATION": NOWHERE}}
    ):
        yield
    cache.clear()


@pytest.fixture
def table():
    a, b = (PlayerFactory(user=UserFactory()) for _ in range(2))
    match = MatchFactory(entry_a__player=a, entry_b__player=b, round__tournament__slug="outage-cup")
    OfficialFactory(tournament=match.round.tournament, role="referee", user__username="outage-referee")
    return match


@pytest.mark.django_db
def test_with_redis_down_pages_and_result_entry_keep_working(client, redis_down, table):
    slug = table.round.tournament.slug
    assert client.get(reverse("public-pairings", kwargs={"slug": slug})).status_code == 200
    client.force_login(table.entry_a.player.user)
    page = reverse("result-match", kwargs={"slug": slug, "match_id": table.pk})
    reported = client.post(page, {"version": table.version, "score_a": 5, "score_b": 2, "action": "report",
                                  "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0"})  # fmt: skip
    assert reported.status_code == 302
    report = Result.objects.get(match=table)
    client.force_login(table.entry_b.player.user)
    confirmed = client.post(
        reverse("result-confirm", kwargs={"slug": slug, "match_id": table.pk}),
        {"result": report.pk, "version": Match.objects.get(pk=table.pk).version},
    )
    assert confirmed.status_code == 302
    assert Match.objects.get(pk=table.pk).result_status == ResultStatus.CONFIRMED
    standings = client.get(reverse("public-standings", kwargs={"slug": slug})).content.decode()
    pairings = client.get(reverse("public-pairings", kwargs={"slug": slug})).content.decode()
    assert "5:2" in pairings or "5 : 2" in pairings
    assert table.entry_a.player.last_name in standings
    from django.core.cache import caches

    assert caches["default"]._down_until > 0  # it really ran without Redis


def live_redis_cache():
    """The shared cache on the local Redis (database 14), or skip when there is none."""
    import redis

    from zarik.cache import ResilientRedisCache

    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.3).ping()
    except redis.exceptions.RedisError:
        pytest.skip("no local Redis on 6379")
    return ResilientRedisCache(url, {})


@pytest.mark.local_redis  # empties Redis database 14, bin/serve's broker in tests/zarik/test_serve.py
def test_a_redis_outage_is_a_miss_and_a_lost_write_clears_the_cache_when_it_is_back():
    """Against the local Redis when there is one: nothing stale survives an outage."""
    live = live_redis_cache()
    live.set("page", "old fragment")
    down = type(live)(NOWHERE, {})
    assert down.get("page", "miss") == "miss" and down.incr("version") == 1  # no error, a miss
    # The same process, Redis back: the write it lost (a version bump) makes it clear once.
    down._servers = live._servers
    down._cache = live._cache
    down._down_until = 0.000001  # the retry pause is over
    assert down.get("page") is None  # cleared, not the stale fragment
    assert live.get("page") is None


@pytest.mark.local_redis  # empties Redis database 14, bin/serve's broker in tests/zarik/test_serve.py
def test_the_shared_cache_counts_in_one_round_trip_but_never_creates_a_version():
    """A version key that was evicted must not come back as a small number an old page used."""
    live = live_redis_cache()
    live.delete("version")
    with pytest.raises(ValueError):
        live.incr("version")
    assert live.get("version") is None  # not created by the failed increment
    live.set("version", 41)
    assert (live.incr("version"), live.incr("version", 2), live.get("version")) == (42, 44, 44)
    assert live._cache.get_client() is live._cache.get_client(write=True)  # one client, reused


@pytest.mark.local_redis  # empties Redis database 14, bin/serve's broker in tests/zarik/test_serve.py
def test_the_shared_cache_bumps_several_versions_in_one_call_and_starts_missing_ones_fresh():
    """The page cache bumps a tournament's results and a round's version together (one round
    trip); a version that was never read (or was evicted) starts at the given fresh number."""
    live = live_redis_cache()
    live.delete_many(["results", "round"])
    live.set("results", 7)
    live.bump_versions(["results", "round"], 10**18)
    assert (live.get("results"), live.get("round")) == (8, 10**18)
    live.bump_versions(["results", "round"], 5)
    assert (live.get("results"), live.get("round")) == (9, 10**18 + 1)
    down = type(live)(NOWHERE, {})
    assert down.bump_versions(["results"], 1) is None and down._lost_write  # skipped, remembered


# --- the database connection lost mid-request -------------------------------------------------


def _lose_the_connection_at(marker: str):
    """A real loss on PostgreSQL (the session terminated by another one); an error on SQLite."""

    def wrapper(execute, sql, params, many, context):
        if marker in sql:
            if connection.vendor == "postgresql":
                import psycopg

                pid = connection.connection.info.backend_pid
                settings_dict = connection.settings_dict
                with psycopg.connect(
                    host=settings_dict["HOST"] or "127.0.0.1", port=settings_dict["PORT"] or 5432,
                    user=settings_dict["USER"], dbname=settings_dict["NAME"], autocommit=True,
                ) as other:
                    other.execute("SELECT pg_terminate_backend(%s)", [pid])
            else:
                raise OperationalError("disk I/O error")
        return execute(sql, params, many, context)

    return wrapper


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("language", "words"), [("en", "nothing was saved"), ("ru", "ничего не сохранено")])
def test_a_connection_lost_mid_save_answers_clearly_keeps_the_input_and_saves_nothing(
    client, table, language, words
):
    slug = table.round.tournament.slug
    client.force_login(table.entry_a.player.user)
    client.cookies["django_language"] = language
    page = reverse("result-match", kwargs={"slug": slug, "match_id": table.pk})
    version = table.version
    with connection.execute_wrapper(_lose_the_connection_at('INSERT INTO "tournaments_auditentry"')):
        answer = client.post(page, {"version": version, "score_a": 5, "score_b": 3, "action": "report",
                                    "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0"})  # fmt: skip
    connection.close()  # the test's own next query opens a fresh connection
    html = answer.content.decode()
    assert answer.status_code == 503 and answer["Retry-After"]
    assert words in html
    assert 'name="score_a" value="5"' in html and 'name="score_b" value="3"' in html
    assert f'action="{page}"' in html  # "send again" posts the same input to the same page
    # Nothing half-saved: the result, the match's state and the audit line all rolled back.
    assert not Result.objects.filter(match=table).exists()
    fresh = Match.objects.get(pk=table.pk)
    assert fresh.version == version and fresh.result_status == ResultStatus.PENDING
    assert not AuditEntry.objects.filter(action="result.report").exists()
    # Sending it again once the database is back saves it.
    again = client.post(page, {"version": version, "score_a": 5, "score_b": 3, "action": "report",
                               "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0"})  # fmt: skip
    assert again.status_code == 302 and Result.objects.filter(match=table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_under_the_api_is_a_503_problem(table):
    from rest_framework.test import APIClient

    from tournaments.api.http import tokens

    _token, key = tokens.issue(table.entry_a.player.user, "t", "write")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    with connection.execute_wrapper(_lose_the_connection_at('INSERT INTO "scoring_result"')):
        answer = api.post(f"/api/matches/{table.pk}/report/", {"final": [5, 1], "version": table.version},
                          format="json", HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    connection.close()
    assert answer.status_code == 503 and answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "service.db_unavailable_api"
    assert not Result.objects.filter(match=table).exists()


# --- two directors, one round (sequential half: what the second one reads) --------------------


@pytest.mark.django_db
def test_the_director_closing_a_round_already_closed_is_told_so(client, table):
    rnd = table.round
    organiser = OfficialFactory(tournament=rnd.tournament, role="organiser").user
    Match.objects.filter(round=rnd).update(score_a=5, score_b=1, winner="a", result_status=ResultStatus.CONFIRMED)
    client.force_login(organiser)
    url = reverse("desk-round-close", kwargs={"slug": rnd.tournament.slug, "round_id": rnd.pk})
    first = client.post(url, follow=True).content.decode()
    assert "is finished" in first or "завершён" in first
    second = client.post(url, follow=True).content.decode()
    assert "уже завершён" in second or "already finished" in second
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.FINISHED
    assert AuditEntry.objects.filter(action="round.close").count() == 1


@pytest.mark.django_db
def test_with_the_broker_down_an_export_fails_fast_and_says_so(client, book, media_root, settings):
    """Issue 29: not run in the web process (19 s, then a 500) but refused at once, the job failed;
    tests/jobs/test_hardening_broker_down.py retries it afresh."""
    from tests.conftest import forget_celery_connections
    from zarik.celery import app

    old = {k: app.conf.get(k) for k in ("task_always_eager", "broker_url", "broker_connection_timeout")}
    forget_celery_connections()
    app.conf.update(task_always_eager=False, broker_url=NOWHERE, broker_connection_timeout=0.5)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    client.cookies["django_language"] = "en"
    try:
        response = client.post(reverse("public-export", kwargs={"slug": book.slug}), {"lang": "en"})
    finally:
        app.conf.update(old)
        forget_celery_connections()
    assert response.status_code == 503 and "job queue did not answer" in response.content.decode()


@pytest.mark.celery_worker
def test_a_real_worker_killed_during_an_export(transactional_db, media_root, celery_worker_process, client, settings):
    """SIGKILL the worker process while it writes a big workbook; the page then says it failed."""
    import signal
    import time

    from tests.factories import swiss_event

    if connection.vendor != "postgresql":
        pytest.skip("the worker is another process and must see the test database: PostgreSQL only")
    app, worker = celery_worker_process
    big = swiss_event(1000, slug="big-export", rounds_done=6)
    client.cookies["django_language"] = "en"
    progress = _export(client, big)
    job = progress.rstrip("/").rsplit("/", 1)[1]
    deadline = time.monotonic() + 60
    while (jobs.read_status(big.slug, job) or {}).get("state") != jobs.PROGRESS:
        assert time.monotonic() < deadline, "the worker never started the export"
        time.sleep(0.005)
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=10)
    status = client.get(progress + "status/").json()
    assert status["state"] == "FAILURE", status  # not stuck "in progress" for ever
    assert "worker failed" in status["error"]
    assert client.get(progress + "download/").status_code == 404
    assert not export_tasks.workbook_path(big.slug, job).exists()
    # Retry: with no worker left, run it here (eager) — the button starts a new job.
    app.conf.task_always_eager = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    again = _export(client, big)
    assert again != progress and client.get(again + "status/").json()["state"] == "SUCCESS"
