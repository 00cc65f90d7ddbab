"""Issue 28: a webhook receiver that never answers delays no API or page request (the embedded
default's delivery thread takes the wait), and the delivery is still attempted and logged.

Two proofs, neither a bare stopwatch on a shared machine:

- causal: the receiver takes the delivery's connection and reads its request, and answers
  nothing until the test lets it go. The user's request (an API result and a referee's result
  form) is already answered while its delivery is still unanswered — had the request waited
  for the receiver, it could not have come back before the test released it;
- measured against itself: the same requests on an event nobody subscribes to, interleaved with
  the heard one while the delivery thread is stuck on the silent receiver, each side judged by
  its fastest try (other jobs on the machine only ever add time), differ by under 100 ms.
"""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings

from tests.factories import (
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.webhook_receiver import webhook_receiver
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import (
    DeliveryStatus,
    Match,
    OfficialRole,
    TokenScope,
    WebhookDelivery,
    WebhookSubscription,
)
from tournaments.notifications import webhook_runner, webhooks

# the circuit (tests/notifications/test_webhook_isolation.py) kept shut: these count every attempt
HELD = dict(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=60, WEBHOOK_MAX_ATTEMPTS=1, WEBHOOK_CIRCUIT_FAILURES=0)


@dataclass
class HoldingReceiver:
    """Takes every connection, reads the delivery sent on it and says nothing until released."""

    url: str = ""
    held: dict[str, socket.socket] = field(default_factory=dict)  # Zarik-Delivery → its open connection
    releasing: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def holds(self, event_id: str, within: float = 20.0) -> bool:
        """Wait until the delivery of ``event_id`` is on a connection this receiver holds open."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            with self.lock:
                if event_id in self.held:
                    return True
            time.sleep(0.02)
        return False

    def release(self) -> None:
        """Close every held connection (the delivery fails at once) and every later one on arrival."""
        self.releasing.set()
        with self.lock:
            for conn in self.held.values():
                conn.close()


@contextmanager
def holding_receiver():
    receiver = HoldingReceiver()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.05)
    receiver.url = f"http://127.0.0.1:{server.getsockname()[1]}/hook"
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _addr = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if receiver.releasing.is_set():
                conn.close()
                continue
            conn.settimeout(5)
            request = b""
            try:
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    request += chunk
            except OSError:
                pass
            headers = request.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
            event_id = next((h.split(":", 1)[1].strip() for h in headers if h.lower().startswith("zarik-delivery:")), "")
            with receiver.lock:
                receiver.held[event_id] = conn
            if receiver.releasing.is_set():
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.release()
        stop.set()
        thread.join(5)
        server.close()


@pytest.fixture
def event(transactional_db):
    """An event heard by a subscription and one nobody hears, each with a director's token and a
    referee's logged-in browser, and twelve published matches."""

    def make():
        tournament = TournamentFactory(public=True)
        director, referee = UserFactory(), UserFactory()
        OfficialFactory(tournament=tournament, user=director, role=OfficialRole.ORGANISER)
        OfficialFactory(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
        rnd = RoundFactory(tournament=tournament)
        matches = [
            MatchFactory(round=rnd, table=n, entry_a=EntryFactory(tournament=tournament),
                         entry_b=EntryFactory(tournament=tournament))
            for n in range(1, 13)
        ]  # fmt: skip
        _token, key = issue_token(director, "timing", TokenScope.WRITE)
        page = Client()
        page.force_login(referee)
        return tournament, director, Client(HTTP_AUTHORIZATION=f"Token {key}"), page, matches

    return make


def api_result(http, match) -> float:
    """An official enters a confirmed result over the API: the event every subscription hears."""
    started = time.perf_counter()
    answer = http.post(f"/api/matches/{match.pk}/report/", {"final": [5, 1], "confirm": True,
                       "version": match.version}, content_type="application/json")  # fmt: skip
    elapsed = time.perf_counter() - started
    assert answer.status_code == 201, answer.content
    return elapsed


def page_result(browser, match) -> float:
    """A referee enters the same on the match's result form (the page, not the API)."""
    match = Match.objects.get(pk=match.pk)
    started = time.perf_counter()
    answer = browser.post(f"/t/{match.round.tournament.slug}/referee/{match.pk}/", {
        "version": match.version, "score_a": 5, "score_b": 1, "action": "confirm",
        "games-TOTAL_FORMS": "0", "games-INITIAL_FORMS": "0",
    })  # fmt: skip
    elapsed = time.perf_counter() - started
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Match.objects.get(pk=match.pk).result_status == "confirmed"
    return elapsed


def newest_delivery(subscription) -> WebhookDelivery:
    return WebhookDelivery.objects.filter(subscription=subscription, event="result.confirmed").latest("pk")


def test_the_embedded_default_runs_deliveries_in_its_own_thread():
    assert webhook_runner.runner() == "thread"  # no broker in the tests, as with `make run`


@override_settings(**HELD)
def test_an_api_and_a_page_request_are_answered_while_the_receiver_still_holds_their_delivery(event):
    tournament, director, http, browser, matches = event()
    with holding_receiver() as receiver:
        webhooks.forget_listeners()
        subscription = webhooks.subscribe({"tournament": tournament}, receiver.url, ["result.confirmed"], director)
        for enter, browser_or_token, match in ((api_result, http, matches[0]), (page_result, browser, matches[1])):
            enter(browser_or_token, match)  # answered: the user has the page / the 201 now
            delivery = newest_delivery(subscription)
            assert receiver.holds(delivery.event_id), "the delivery never reached the receiver"
            delivery.refresh_from_db()
            # the receiver has the delivery and has said nothing: the request came back without it
            assert (delivery.attempts, delivery.status) == (0, DeliveryStatus.PENDING), enter.__name__
            with receiver.lock:
                receiver.held.pop(delivery.event_id).close()  # now the receiver hangs up
            deadline = time.monotonic() + 20
            while delivery.attempts == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
                delivery.refresh_from_db()
            assert (delivery.attempts, delivery.status) == (1, DeliveryStatus.FAILED)  # attempted and logged


@override_settings(**HELD)
def test_a_receiver_that_never_answers_holds_up_no_api_or_page_request(event):
    heard, director, heard_api, heard_page, heard_matches = event()
    _quiet, _director, quiet_api, quiet_page, quiet_matches = event()
    api_result(quiet_api, quiet_matches[0])  # warm both paths
    page_result(quiet_page, quiet_matches[1])
    with holding_receiver() as receiver:
        webhooks.forget_listeners()
        subscription = webhooks.subscribe({"tournament": heard}, receiver.url, ["result.confirmed"], director)
        api_result(heard_api, heard_matches[0])
        assert receiver.holds(newest_delivery(subscription).event_id)  # the delivery thread is stuck there now
        times: dict[str, list[float]] = {"quiet api": [], "heard api": [], "quiet page": [], "heard page": []}
        for n in range(5):  # interleaved: a burst of load on the machine falls on both sides alike
            times["quiet api"].append(api_result(quiet_api, quiet_matches[2 + 2 * n]))
            times["heard api"].append(api_result(heard_api, heard_matches[1 + 2 * n]))
            times["quiet page"].append(page_result(quiet_page, quiet_matches[3 + 2 * n]))
            times["heard page"].append(page_result(heard_page, heard_matches[2 + 2 * n]))
        # A request waiting on the held delivery would take the delivery's timeout (seconds); half a
        # second of margin keeps a loaded machine's noise (0.12 s seen under load) from failing it.
        assert min(times["heard api"]) < min(times["quiet api"]) + 0.5, times
        assert min(times["heard page"]) < min(times["quiet page"]) + 0.5, times
        logged = WebhookDelivery.objects.filter(subscription=subscription)
        assert logged.count() == 11 and not logged.exclude(attempts=0).exists()  # all held up behind the first
        receiver.release()
        deadline = time.monotonic() + 30
        while logged.filter(attempts=0).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    assert [(d.attempts, d.status) for d in logged] == [(1, DeliveryStatus.FAILED)] * 11


@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=1, WEBHOOK_MAX_ATTEMPTS=1)
def test_a_receiver_that_never_answers_is_logged_as_timed_out(event):
    tournament, director, http, _browser, matches = event()
    silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)  # takes the connection in the kernel, never reads or answers
    try:
        webhooks.forget_listeners()
        subscription = webhooks.subscribe(
            {"tournament": tournament}, f"http://127.0.0.1:{silent.getsockname()[1]}/hook", ["result.confirmed"], director
        )
        api_result(http, matches[0])
        delivery = newest_delivery(subscription)
        deadline = time.monotonic() + 20
        while delivery.attempts == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
            delivery.refresh_from_db()
    finally:
        silent.close()
    assert (delivery.attempts, delivery.status) == (1, DeliveryStatus.FAILED) and "timed out" in delivery.error


def _assert_delivered_once(delivery: WebhookDelivery, receiver) -> None:
    """Wait (30 s at most) for the delivery to leave ``pending``: it must be delivered, at its
    first logged attempt (a refused one is no attempt), and the receiver heard only it."""
    deadline = time.monotonic() + 30
    while delivery.status == DeliveryStatus.PENDING and time.monotonic() < deadline:
        time.sleep(0.2)
        delivery.refresh_from_db()
    assert (delivery.attempts, delivery.status) == (1, DeliveryStatus.DELIVERED)
    assert receiver.requests and {r.headers["Zarik-Delivery"] for r in receiver.requests} == {delivery.event_id}


@override_settings(WEBHOOK_ALLOW_LOCAL=True, WEBHOOK_TIMEOUT=5, WEBHOOK_MAX_ATTEMPTS=1)
def test_an_attempt_the_database_refused_is_made_again_not_left_pending(transactional_db, caplog):
    """The delivery thread met a database error (here SQLite's table lock, held by a writer that
    has not committed): nothing was sent or logged, so the delivery is queued again and made once
    the database answers, rather than left ``pending`` until someone presses "redeliver"."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        pytest.skip("a table lock that refuses at once is SQLite's shared in-memory database's")
    with webhook_receiver() as receiver:
        subscription = WebhookSubscription.objects.create(tournament=TournamentFactory(), url=receiver.url, secret="x")
        delivery = WebhookDelivery.objects.create(
            subscription=subscription, event="standings.changed", event_id="locked-1", payload={"n": 1}
        )
        with caplog.at_level("WARNING", logger="tournaments.notifications.webhook_runner"):
            with transaction.atomic():
                WebhookDelivery.objects.filter(pk=delivery.pk).update(error="")  # holds the table
                webhook_runner.submit(delivery.pk, subscription.pk)
                deadline = time.monotonic() + 10
                while "met a database error" not in caplog.text and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert "met a database error" in caplog.text  # the thread tried and was refused
                assert receiver.requests == []
            _assert_delivered_once(delivery, receiver)


@pytest.fixture
def worker_with_short_statements(monkeypatch):
    """What the real worker started after it reads from the environment: statements cancelled
    after half a second, and a local receiver let through."""
    monkeypatch.setenv("DB_BATCH_STATEMENT_TIMEOUT_MS", "500")  # a worker's (its tasks are batch jobs)
    monkeypatch.setenv("WEBHOOK_ALLOW_LOCAL", "1")


@pytest.mark.celery_worker
def test_a_real_worker_whose_read_the_database_cancelled_delivers_once_it_answers(
    worker_with_short_statements, transactional_db, celery_worker_process,
):
    """The Celery runner: the worker's read of the delivery waits behind a lock past its
    statement timeout, so the database cancels it. That attempt is none: the task runs again
    a second later and delivers once the table is free, instead of failing for good with the
    delivery ``pending`` until someone presses "redeliver"."""
    import psycopg

    from tournaments.notifications import tasks

    if connection.vendor != "postgresql":
        pytest.skip("the worker is another process and must see the test database: PostgreSQL only")
    db = connection.settings_dict
    with webhook_receiver() as receiver:
        subscription = WebhookSubscription.objects.create(tournament=TournamentFactory(), url=receiver.url, secret="x")
        delivery = WebhookDelivery.objects.create(
            subscription=subscription, event="standings.changed", event_id="cancelled-1", payload={"n": 1}
        )
        conninfo = f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} user={db['USER']} dbname={db['NAME']}"
        with psycopg.connect(conninfo) as locker:  # a transaction until the block ends
            locker.execute("LOCK TABLE tournaments_webhookdelivery IN ACCESS EXCLUSIVE MODE")
            tasks.deliver_webhook.delay(delivery.pk)
            time.sleep(1.5)  # the worker's read is cancelled after 0.5 s, and again a second later
            assert receiver.requests == []
        _assert_delivered_once(delivery, receiver)
