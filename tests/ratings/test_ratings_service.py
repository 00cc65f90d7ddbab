"""Ratings follow confirmed results: on confirm, on correction and ruling, and on recompute.

The one invariant: the stored ratings and history equal ``replay()`` of the stored
confirmed results of the pool's rated tournaments, in sequence order.
"""

from __future__ import annotations

import time

import lxml.html
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import TestCase
from django.urls import reverse

from clubs.models import PlayerRating
from clubs.ratings.fibs import Standing
from clubs.ratings.history import RatedMatch, replay
from scoring import workflow
from scoring.models import Result
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tests.setup.test_setup_pages import post
from tournaments.draw.services import seed_numbers
from tournaments.models import Match, RatingChange, ResultStatus
from tournaments.ratings import service as ratings_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


def event(director, players, *, rated=True, variant="backgammon", rounds=3, **fields):
    t = TournamentFactory(rated=rated, variant=variant, **fields)
    OfficialFactory(tournament=t, user=director, role="organiser")
    entries = enter(t, players)
    rnds = [RoundFactory(tournament=t, number=n) for n in range(1, rounds + 1)]
    return t, entries, rnds


def play(director, rnd, a, b, score, **extra):
    """A referee enters a confirmed result through the real workflow (rated once it commits)."""
    match = MatchFactory(round=rnd, entry_a=a, entry_b=b, **extra)
    with TestCase.captureOnCommitCallbacks(execute=True):
        workflow.submit_result(match.pk, director, version=match.version, final=score, confirm=True)
    return Match.objects.get(pk=match.pk)


def recomputes(callbacks):
    return [c for c in callbacks if "schedule_recompute" in c.__qualname__]


def stored_replay(pool="backgammon"):
    """Replay the stored confirmed results in the pool's order, independently of the service."""
    ids = (RatingChange.objects.filter(pool=pool).order_by("sequence")
           .values_list("match_id", flat=True).distinct())  # fmt: skip
    order, seen = [], set()
    for mid in ids:
        if mid not in seen:
            seen.add(mid)
            m = Match.objects.select_related("entry_a", "entry_b", "round__tournament").get(pk=mid)
            assert m.result_status == ResultStatus.CONFIRMED
            order.append(RatedMatch(m.entry_a.player_id, m.entry_b.player_id,
                                    m.round.tournament.match_length, m.score_a, m.score_b))  # fmt: skip
    return replay(None, order)


def assert_stored_equals_replay(pool="backgammon"):
    table, changes = stored_replay(pool)
    stored = {r.player_id: r for r in PlayerRating.objects.filter(pool=pool)}
    assert set(stored) == set(table)
    for pid, state in table.items():
        assert stored[pid].rating == pytest.approx(state.rating, abs=1e-9)
        assert stored[pid].experience == state.experience
    rows = list(RatingChange.objects.filter(pool=pool).order_by("sequence", "pk"))
    assert len(rows) == len(changes)
    by_key = {(r.sequence, r.player_id): r for r in rows}
    sequences = sorted({r.sequence for r in rows})
    for c in changes:
        row = by_key[(sequences[c.index], c.player)]
        assert row.rating_after == pytest.approx(c.rating_after, abs=1e-9)
        assert row.expected == pytest.approx(c.expected, abs=1e-12)
    return table


def test_a_confirmed_result_rates_both_players_at_once(director):
    p = PlayerFactory.create_batch(2)
    _, (a, b), (r1, *_) = event(director, p)
    match = play(director, r1, a, b, (5, 2))
    rows = {r.player_id: r for r in PlayerRating.objects.filter(pool="backgammon")}
    up, down = rows[p[0].pk], rows[p[1].pk]
    assert up.rating > 1500 > down.rating and up.experience == down.experience == 5
    assert up.matches == down.matches == 1 and up.last_played is not None
    changes = RatingChange.objects.filter(match=match)
    assert {c.sequence for c in changes} == {1}
    mine = changes.get(player=p[0])
    assert (mine.opponent_id, mine.length, mine.score_for, mine.score_against) == (p[1].pk, 5, 5, 2)
    assert float(mine.result) == 1.0 and mine.expected == pytest.approx(0.5)
    assert_stored_equals_replay()


def test_a_history_across_events_equals_the_replay_and_unrated_things_do_not_count(director):
    p = PlayerFactory.create_batch(4)
    _, e, (r1, r2, r3) = event(director, p)
    play(director, r1, e[0], e[1], (5, 1))
    play(director, r1, e[2], e[3], (3, 5))
    play(director, r2, e[0], e[3], (6, 4))
    play(director, r3, e[1], e[2], (2, 5))
    MatchFactory(round=r3, entry_a=e[3], entry_b=None)  # a bye is never rated
    _, e2, (s1, *_) = event(director, p[:2], rated=False)
    play(director, s1, e2[0], e2[1], (5, 0))  # an unrated event
    _, e3, (n1, *_) = event(director, p[:2], variant="long_nardy")
    play(director, n1, e3[0], e3[1], (5, 0))  # another pool
    assert RatingChange.objects.filter(pool="backgammon").count() == 8
    assert PlayerRating.objects.filter(pool="long_nardy").count() == 2
    assert_stored_equals_replay()
    assert_stored_equals_replay("long_nardy")


def test_first_confirmations_are_rated_together_in_the_order_they_were_confirmed(director):
    """A burst of confirmations: their ratings wait for one batch, which rates them as one by one."""
    p = PlayerFactory.create_batch(4)
    _, e, (r1, r2, _) = event(director, p)
    play(director, r1, e[0], e[1], (5, 1))  # rated already
    waiting = []
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        for rnd, a, b, score in ((r1, e[2], e[3], (2, 5)), (r2, e[0], e[2], (5, 4)), (r2, e[1], e[3], (0, 5))):
            match = MatchFactory(round=rnd, entry_a=a, entry_b=b)
            workflow.submit_result(match.pk, director, version=match.version, final=score, confirm=True)
            waiting.append(match)
    assert not RatingChange.objects.filter(match__in=waiting).exists()  # nothing rated before the commit
    queued = [c for c in callbacks if "schedule_new_rating" in c.__qualname__]
    assert len(queued) == 3  # one per confirmation; the first batch finds all three
    queued[0]()
    order = [RatingChange.objects.filter(match=m).values_list("sequence", flat=True).distinct().get() for m in waiting]
    assert order == [2, 3, 4]
    assert ratings_service.rate_new("backgammon") == 0  # the later batches find nothing left
    assert RatingChange.objects.count() == 8
    assert_stored_equals_replay()


def test_a_web_process_queues_the_pools_batch_once_per_window(director, settings):
    """Twenty confirmations in a moment publish one rating task, to run after the window."""
    from kombu import Connection

    from tests.conftest import forget_celery_connections
    from tournaments.ratings import tasks
    from zarik.celery import app

    old = {k: app.conf.get(k) for k in ("task_always_eager", "broker_url")}
    forget_celery_connections()
    app.conf.update(task_always_eager=False, broker_url="memory://")
    tasks._rating_queued_at.clear()
    try:
        for _ in range(20):
            tasks._queue_new_ratings("backgammon")
        with Connection("memory://") as conn:
            queue = conn.SimpleQueue("celery")
            assert queue.qsize() == 1
            message = queue.get(timeout=1)
            message.ack()
            assert message.headers["task"] == "tournaments.rate_new_results"
            assert message.headers["eta"] is not None  # after the window: it finds the whole burst
            tasks._rating_queued_at["backgammon"] -= tasks.RATING_BATCH_SECONDS  # the window passed
            tasks._queue_new_ratings("backgammon")
            tasks._queue_new_ratings("long_nardy")  # another pool has its own window
            assert queue.qsize() == 2
            queue.clear()
    finally:
        tasks._rating_queued_at.clear()
        app.conf.update(old)
        forget_celery_connections()


@pytest.mark.celery_worker
def test_a_real_worker_rates_a_burst_of_confirmations_after_the_window(transactional_db, celery_worker_app):
    """Confirmations over the API's service, a real worker, the batch a moment later."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker is another process and must see the test database: PostgreSQL only")
    from tournaments.ratings import tasks

    tasks._rating_queued_at.clear()
    director = UserFactory()
    p = PlayerFactory.create_batch(6)
    _, e, (r1, *_) = event(director, p)
    matches = [MatchFactory(round=r1, entry_a=e[k], entry_b=e[k + 3]) for k in range(3)]
    for m, score in zip(matches, ((5, 1), (3, 5), (5, 4)), strict=True):
        workflow.submit_result(m.pk, director, version=m.version, final=score, confirm=True)  # commits
    deadline = time.monotonic() + 30
    while RatingChange.objects.count() < 6 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert RatingChange.objects.count() == 6
    order = [RatingChange.objects.filter(match=m).values_list("sequence", flat=True).distinct().get() for m in matches]
    assert order == [1, 2, 3]
    assert_stored_equals_replay()
    tasks._rating_queued_at.clear()


def test_a_correction_recomputes_the_pool_from_that_match(director, django_capture_on_commit_callbacks):
    p = PlayerFactory.create_batch(4)
    _, e, (r1, r2, r3) = event(director, p)
    first = play(director, r1, e[0], e[1], (5, 1))
    play(director, r1, e[2], e[3], (5, 4))
    play(director, r2, e[1], e[2], (5, 3))
    play(director, r3, e[0], e[2], (0, 5))
    before = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        workflow.submit_result(first.pk, director, version=first.version, final=(2, 5),
                               confirm=True, reason="score sheet misread")  # fmt: skip
    assert len(recomputes(callbacks)) == 1  # the recompute task, run eagerly after the commit
    after = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    assert after[p[0].pk] < before[p[0].pk] and after[p[1].pk] > before[p[1].pk]
    assert after[p[2].pk] != before[p[2].pk]  # p2 played p1 after the corrected match
    assert RatingChange.objects.get(match=first, player=p[0]).sequence == 1  # its place is kept
    table = assert_stored_equals_replay()
    assert table[p[1].pk].rating == pytest.approx(after[p[1].pk])


def test_a_ruling_that_voids_a_result_removes_it_from_the_history(director, django_capture_on_commit_callbacks):
    p = PlayerFactory.create_batch(3)
    _, e, (r1, r2, _) = event(director, p)
    a_user, b_user = UserFactory(), UserFactory()
    p[0].user, p[1].user = a_user, b_user
    p[0].save()
    p[1].save()
    voided = play(director, r1, e[0], e[1], (5, 0))
    play(director, r2, e[1], e[2], (5, 2))
    result = Result.objects.get(match=voided, state="confirmed")
    dispute = workflow.dispute_result(voided.pk, result.pk, b_user,
                                      version=Match.objects.get(pk=voided.pk).version,
                                      reason="we never played")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        workflow.rule_dispute(dispute.pk, director, outcome="void", ruling="not played", version=None)
    assert not RatingChange.objects.filter(match=voided).exists()
    assert not PlayerRating.objects.filter(player=p[0]).exists()  # no rated match left
    assert_stored_equals_replay()


def test_the_same_score_again_changes_nothing(director, django_capture_on_commit_callbacks):
    p = PlayerFactory.create_batch(2)
    _, (a, b), (r1, *_) = event(director, p)
    match = play(director, r1, a, b, (5, 2))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        workflow.submit_result(match.pk, director, version=match.version, final=(5, 2),
                               confirm=True, reason="re-entered")  # fmt: skip
    assert recomputes(callbacks) == []
    assert_stored_equals_replay()


def test_recompute_command_rebuilds_from_the_results_and_picks_up_a_newly_rated_event(director):
    p = PlayerFactory.create_batch(3)
    _, e, (r1, r2, _) = event(director, p)
    play(director, r1, e[0], e[1], (5, 3))
    t2, e2, (s1, *_) = event(director, p, rated=False)
    late = play(director, s1, e2[1], e2[2], (5, 0))
    assert not late.rating_changes.exists()
    PlayerRating.objects.filter(player=p[0]).update(rating=9999)  # a tampered row is repaired
    t2.rated = True
    t2.save()
    call_command("recompute_ratings", "--pool", "backgammon", stdout=None)
    assert late.rating_changes.count() == 2
    assert RatingChange.objects.get(match=late, player=p[1]).sequence == 2
    assert_stored_equals_replay()


def test_fixed_games_matches_rate_by_the_outcome_and_a_level_match_is_a_draw(director):
    p = PlayerFactory.create_batch(2)
    _, (a, b), (r1, *_) = event(director, p, variant="long_nardy", scoring="long_nardy",
                                match_format="games", fixed_games=2, match_length=None,
                                draw_value="0.5")  # fmt: skip
    match = play(director, r1, a, b, (1, 1))
    changes = {c.player_id: c for c in match.rating_changes.all()}
    assert float(changes[p[0].pk].result) == 0.5 and changes[p[0].pk].length == 2
    table, _ = replay(None, [RatedMatch(p[0].pk, p[1].pk, 2, 1, 1, games=True)])
    assert PlayerRating.objects.get(player=p[0]).experience == 2
    assert table[p[0].pk] == Standing(1500.0, 2)


def test_recompute_task_reports_progress_in_its_job_file(director, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    p = PlayerFactory.create_batch(2)
    _, (a, b), (r1, *_) = event(director, p)
    play(director, r1, a, b, (5, 2))
    from tournaments.jobs import progress as jobs
    from tournaments.ratings import tasks

    job = jobs.start(tasks.ratings_job_folder("backgammon"))
    jobs.enqueue(tasks.recompute_ratings, ("backgammon", 1, job), job)
    status = jobs.read_status(tasks.ratings_job_folder("backgammon"), job)
    assert status["state"] == jobs.SUCCESS and status["matches"] == 1


def test_seeding_by_rating_uses_the_pool_rating_first(director):
    p = PlayerFactory.create_batch(3)
    p[2].rating = 1800  # a declared rating, used only without a pool rating
    p[2].save()
    _, e, (r1, *_) = event(director, p[:2])
    play(director, r1, e[0], e[1], (1, 5))  # p1 now rated above p0
    t = TournamentFactory(seeding="rating")
    entries = enter(t, p, first_number=None)
    ratings = ratings_service.seeding_ratings(t, entries)
    assert ratings[entries[2].pk] == 1800
    assert ratings[entries[1].pk] > 1500 > ratings[entries[0].pk]
    seed_numbers(t)
    numbers = dict(t.entries.values_list("player_id", "draw_number"))
    assert numbers == {p[2].pk: 1, p[1].pk: 2, p[0].pk: 3}


def test_making_an_event_rated_on_its_settings_page_rates_its_results(
    client, director, django_capture_on_commit_callbacks
):
    a, b = PlayerFactory(), PlayerFactory()
    t, (ea, eb), (r1, *_) = event(director, [a, b], rated=False, public=True)
    play(director, r1, ea, eb, (5, 2))
    assert not RatingChange.objects.exists()
    client.force_login(director)
    url = reverse("manage-settings", kwargs={"slug": t.slug})
    forms = lxml.html.fromstring(client.get(url).content.decode()).forms
    form = next(f for f in forms if "rated" in f.fields)
    values = [(k, v) for k, v in form.form_values() if k != "rated"] + [("rated", "on")]
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, url, values)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert t.rated
    assert_stored_equals_replay()
    rating = dict(PlayerRating.objects.values_list("player_id", "rating"))
    assert rating[ea.player_id] > 1500 > rating[eb.player_id], rating
    form = next(f for f in lxml.html.fromstring(client.get(url).content.decode()).forms if "rated" in f.fields)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, url, [(k, v) for k, v in form.form_values() if k != "rated"]).status_code == 302
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()  # unrated again
