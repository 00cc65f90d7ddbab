"""A withdrawal settles a fixed schedule's drafts too; webhooks hear of those results only when
their round is published (after ``round.published``, table by table), each once — never before.

A round robin of five: every round is drawn in advance as a draft, each has two matches and a
bye. Round 1 is published; then a player withdraws, which settles his match in round 1 (heard at
once, as before) and his matches in the drafts (held until each round is published). Deliveries
are the real ones: a local receiver, the inline runner, the delivery log.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction
from django.test import override_settings

from scoring.models import Result, ResultState
from tests.factories import EntryFactory, OfficialFactory, TournamentFactory, UserFactory
from tests.webhook_receiver import webhook_receiver
from tournaments import events
from tournaments.entries import status as entry_status
from tournaments.models import (
    CompetitionSystem,
    Match,
    OfficialRole,
    ResultKind,
    ResultStatus,
    RoundStatus,
    WebhookDelivery,
    WebhookSubscription,
)
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def inline_deliveries():
    """The attempts run right after the commit, one after another: the receiver's order is the events'."""
    with override_settings(WEBHOOK_BACKOFF_SECONDS=0, WEBHOOK_MAX_ATTEMPTS=1, WEBHOOK_TIMEOUT=2,
                           WEBHOOK_RUNNER="inline"):
        yield


def _round_robin(slug: str, players: int, surname: str):
    """A round robin of ``players``, every round drawn as a draft and round 1 published."""
    director = UserFactory()
    t = TournamentFactory(
        slug=slug, starts_on=dt.date(2026, 3, 1), system=CompetitionSystem.ROUND_ROBIN,
        bare=True, pairing_options={"cycles": 1}, public=True,
    )
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    entries = [EntryFactory(tournament=t, draw_number=i, player__last_name=f"{surname}{i}") for i in range(1, players + 1)]
    rounds = pm.generate_next(t, user=director)
    assert [r.status for r in rounds] == [RoundStatus.DRAFT] * len(rounds)
    pm.publish_round(rounds[0], user=director)
    return t, director, entries, rounds


@pytest.fixture
def event():
    """A round robin of five: its five rounds drawn as drafts, round 1 published; who will leave."""
    t, director, entries, rounds = _round_robin("rr-drafts", 5, "Черновик")
    assert len(rounds) == 5
    gone = next(  # a player who plays in round 1 (not its bye), so one of his matches is published
        e for e in entries if rounds[0].matches.filter(entry_b__isnull=False).filter(entry_a=e).exists()
    )
    return t, director, gone, rounds


#: The events about rounds and their matches (what drafts hold back); the people's own events
#: (``entry.withdrawn`` for the player who leaves, issue 47) are tests/notifications/test_webhook_people_events.py's.
MATCH_EVENTS = [name for name in events.EVENTS if name.split(".")[0] in ("round", "result", "dispute", "standings")]


def _his(rnd, entry) -> Match | None:
    """His match in the round (None: his bye, or a round without him)."""
    for m in rnd.matches.filter(entry_b__isnull=False):
        if entry.pk in (m.entry_a_id, m.entry_b_id):
            return m
    return None


def _heard(receiver) -> list[tuple[str, int | None]]:
    """Each delivery as (event, the match it names, or the round's number for a round's event)."""
    out = []
    for request in receiver.requests:
        body = json.loads(request.body)
        data = body["data"]
        named = data["match"]["id"] if "match" in data else data["round"]["number"]
        out.append((body["event"], named))
    return out


def test_a_drafts_settled_result_is_heard_once_after_its_round_is_published(
    event, django_capture_on_commit_callbacks,
):
    t, director, gone, rounds = event
    published, drafts = _his(rounds[0], gone), [r for r in rounds[1:] if _his(r, gone) is not None]
    assert published is not None and drafts  # five players: he plays in three of the four drafts
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=MATCH_EVENTS)
        with django_capture_on_commit_callbacks(execute=True):
            entry_status.withdraw(gone, director, "ill", settle="forfeit")
        # His published match is heard of at once, as before.
        assert _heard(receiver) == [("result.confirmed", published.pk), ("standings.changed", published.pk)]
        # His draft matches are settled (every round can be published) but nobody heard of them.
        for rnd in drafts:
            his = Match.objects.get(pk=_his(rnd, gone).pk)
            assert (his.result_status, his.result_kind) == (ResultStatus.CONFIRMED, ResultKind.FORFEIT)
        drafted = {_his(r, gone).pk for r in drafts}
        assert not drafted & {named for _event, named in _heard(receiver)}
        assert WebhookDelivery.objects.count() == 2
        # Each draft, once published in turn, announces itself and then his result: once each.
        for rnd in rounds[1:]:
            his = _his(rnd, gone)  # None: his bye, kept as it was drawn (no result, nothing held)
            before = len(receiver.requests)
            with django_capture_on_commit_callbacks(execute=True):
                pm.publish_round(rnd, user=director)
            heard = _heard(receiver)[before:]
            if his is None:
                assert heard == [("round.published", rnd.number)]
                continue
            assert heard == [
                ("round.published", rnd.number), ("result.confirmed", his.pk), ("standings.changed", his.pk),
            ], rnd.number
            body = json.loads(receiver.requests[before + 1].body)
            confirmed = Result.objects.get(match=his, state=ResultState.CONFIRMED)
            assert body["data"]["result"]["id"] == confirmed.pk
            assert body["data"]["correction"] is False
            assert body["data"]["match"]["result_kind"] == ResultKind.FORFEIT
    confirmed = [named for name, named in _heard(receiver) if name == "result.confirmed"]
    assert sorted(confirmed) == sorted([published.pk, *drafted])  # every settled result, once


def test_a_published_rounds_settled_result_is_heard_at_once_as_before(
    event, django_capture_on_commit_callbacks,
):
    """Holding back a draft's events holds back nothing else: his match in the published round is
    heard of in the withdrawal's own commit, with its forfeit."""
    t, director, gone, rounds = event
    his = _his(rounds[0], gone)
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=["result.confirmed"])
        with django_capture_on_commit_callbacks(execute=True):
            entry_status.withdraw(gone, director, "ill", settle="forfeit")
    assert _heard(receiver) == [("result.confirmed", his.pk)]
    body = json.loads(receiver.requests[0].body)
    assert body["data"]["result"]["id"] == Result.objects.get(match=his, state=ResultState.CONFIRMED).pk
    assert body["data"]["match"]["result_kind"] == ResultKind.FORFEIT
    assert body["data"]["correction"] is False


def test_a_void_settled_in_a_draft_is_one_standings_change_at_its_publication_and_no_result(
    event, django_capture_on_commit_callbacks,
):
    """Voided, his draft matches carry no result: the publication says only that the standings changed."""
    t, director, gone, rounds = event
    draft = next(r for r in rounds[1:] if _his(r, gone) is not None)
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=MATCH_EVENTS)
        with django_capture_on_commit_callbacks(execute=True):
            entry_status.withdraw(gone, director, "ill", settle="void")
        assert _his(draft, gone).pk not in {named for _event, named in _heard(receiver)}
        before = len(receiver.requests)
        for rnd in rounds[1 : draft.number]:  # the drafts up to his, in order
            with django_capture_on_commit_callbacks(execute=True):
                pm.publish_round(rnd, user=director)
    heard = _heard(receiver)[before:]
    his = _his(draft, gone).pk
    assert [e for e in heard if e[1] == his] == [("standings.changed", his)]
    assert heard.index(("round.published", draft.number)) < heard.index(("standings.changed", his))
    assert "result.confirmed" not in {name for name, _named in heard}


def test_a_match_is_named_by_itself_so_its_round_is_checked():
    """``emit`` takes the match itself: an id could not be checked against its round without a
    query under the row lock, so it is refused rather than sent unchecked."""
    with pytest.raises(TypeError):
        events.emit("standings.changed", 1, match=1)


def test_the_confirmed_state_read_through_the_relation_is_the_scoring_apps():
    assert events.CONFIRMED_RESULT == ResultState.CONFIRMED


def test_a_draft_the_withdrawal_settled_whole_closes_after_its_result_is_announced(
    django_capture_on_commit_callbacks,
):
    """Three players: a round is one match and a bye. Once the player leaves, a draft where he
    plays has nothing left to play and closes as it is published — after its result is heard."""
    t, director, entries, rounds = _round_robin("rr-three", 3, "Тройка")
    gone = next(e for e in entries if _his(rounds[0], e) is None)  # his bye in round 1: both his games are drafts
    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=MATCH_EVENTS)
        with django_capture_on_commit_callbacks(execute=True):
            entry_status.withdraw(gone, director, "left", settle="forfeit")
        assert receiver.requests == []
        for rnd in rounds[1:]:
            his = _his(rnd, gone)
            before = len(receiver.requests)
            with django_capture_on_commit_callbacks(execute=True):
                pm.publish_round(rnd, user=director)
            assert _heard(receiver)[before:] == [
                ("round.published", rnd.number), ("result.confirmed", his.pk), ("standings.changed", his.pk),
                ("round.finished", rnd.number),
            ]


@pytest.mark.django_db(transaction=True)
def test_a_draft_published_while_a_withdrawal_settles_it_still_announces_his_result():
    """The withdrawal holds the draft's row while it settles his match there: a director who
    publishes that round at the same moment waits for the withdrawal to commit, then announces
    the forfeit after ``round.published``. Without the row held, the publication commits between
    the settling and its commit, finds nothing settled, and the result is never heard of."""
    if connection.vendor == "sqlite":
        pytest.skip("two threads need a database with row locks (the PostgreSQL pass)")
    t, director, entries, rounds = _round_robin("rr-race", 5, "Гонка")
    gone = next(e for e in entries if _his(rounds[1], e) is not None)  # he plays in the next draft
    his = _his(rounds[1], gone)
    settled, failures = threading.Event(), []

    def withdraw() -> None:
        try:
            with transaction.atomic():
                entry_status.withdraw(gone, director, "ill", settle="forfeit")
                settled.set()
                time.sleep(1.0)  # the publication comes now, before this commits
        except Exception as error:  # noqa: BLE001 (reported to the test below)
            failures.append(error)
            settled.set()
        finally:
            close_old_connections()

    with webhook_receiver() as receiver:
        WebhookSubscription.objects.create(tournament=t, url=receiver.url, secret="x", events=MATCH_EVENTS)
        thread = threading.Thread(target=withdraw)
        thread.start()
        assert settled.wait(20)
        pm.publish_round(rounds[1], user=director)
        thread.join(30)
        assert not failures
        heard = _heard(receiver)
    assert Match.objects.get(pk=his.pk).result_kind == ResultKind.FORFEIT
    assert ("result.confirmed", his.pk) in heard, heard
    assert heard.index(("round.published", 2)) < heard.index(("result.confirmed", his.pk))
