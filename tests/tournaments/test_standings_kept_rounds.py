"""A result read again without re-reading the whole event (issue 32), and never a stale one.

After a confirmation only its round's matches are read again; the other rounds are taken
as this process last made them. Every other kind of change (a match saved in another
round, a bulk update that says so, a withdrawn entry) must show on the next read.
"""

from __future__ import annotations

import gc
import re
import weakref

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scoring import workflow
from tests.factories import OfficialFactory, TournamentFactory, swiss_event
from tournaments.cache import KeptInProcess, invalidate
from tournaments.models import EntryStatus, Match, ResultStatus
from tournaments.public.views import _standings_fragment
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


def _match_reads(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if 'FROM "tournaments_match"' in q["sql"]]


def _wins(event) -> dict[int, object]:
    return {r.player.id: r.values["wins"] for r in event.standings[""].rows}


def test_a_confirmation_reads_its_round_again_and_nothing_else():
    t = swiss_event(8, slug="kept", rounds_done=2, open_round=True)
    before = load_event(t)
    open_round = t.rounds.get(number=3)
    match = Match.objects.filter(round=open_round).order_by("table").first()
    assert _wins(before)[match.entry_a_id] == 2

    referee = OfficialFactory(tournament=t, role="referee").user
    workflow.submit_result(match.pk, referee, version=match.version, final=(5, 3), confirm=True)
    with CaptureQueriesContext(connection) as queries:
        after = load_event(t)
    (read,) = _match_reads(queries)
    assert re.search(rf'"round_id" IN \({open_round.pk}\)', read), read  # round 3 alone
    assert _wins(after)[match.entry_a_id] == 3
    assert len(after.matches) == len(before.matches)
    assert [p.id for p in after.pairings] == [p.id for p in before.pairings]
    assert next(p for p in after.pairings if p.id == match.pk).score_text == "5:3"


def test_a_report_shows_at_once_though_the_round_pairings_stay_cached():
    """A report moves no score onto the round's pairings (they stay cached), but the hall
    shows a reported table: the kept round must be read again."""
    t = swiss_event(8, slug="kept-report", rounds_done=1, open_round=True)
    match = Match.objects.filter(round__tournament=t, round__number=2).order_by("table").first()
    player = match.entry_a.player
    player.user = OfficialFactory(tournament=TournamentFactory()).user  # an account of his own
    player.save()
    before = load_event(t)
    assert next(p for p in before.pairings if p.id == match.pk).result_status == ResultStatus.PENDING
    workflow.submit_result(match.pk, player.user, version=match.version, final=(5, 1))
    after = load_event(t)
    assert next(p for p in after.pairings if p.id == match.pk).result_status == ResultStatus.REPORTED
    assert _wins(after) == _wins(before)  # nothing confirmed: the standings are as they were


def test_a_change_in_an_earlier_round_and_a_bulk_update_show_at_once():
    t = swiss_event(8, slug="kept-old", rounds_done=2, open_round=False)
    load_event(t)
    first = Match.objects.filter(round__tournament=t, round__number=1).order_by("table").first()
    first.score_a, first.score_b, first.winner = 2, 5, "b"
    first.save()  # a referee's correction: the round's version moves on
    assert _wins(load_event(t))[first.entry_b_id] == 1

    Match.objects.filter(round__tournament=t, round__number=2).update(result_status=ResultStatus.PENDING)
    invalidate(t.pk)  # an update() sends no signal: the code that makes it says so
    event = load_event(t)
    assert all(not m.finished for m in event.matches if m.round == 2)
    assert _wins(event)[first.entry_b_id] == 1


def test_a_withdrawn_entry_reads_every_round_again():
    t = swiss_event(8, slug="kept-gone", rounds_done=2, open_round=False)
    load_event(t)
    entry = t.entries.get(draw_number=1)
    entry.status = EntryStatus.WITHDRAWN
    entry.save()
    with CaptureQueriesContext(connection) as queries:
        event = load_event(t)
    (read,) = _match_reads(queries)
    assert re.search(r'"round_id" IN \(\d+, \d+\)', read), read  # both rounds again
    assert next(r for r in event.standings[""].rows if r.player.id == entry.pk).player.withdrawn


def test_a_dropped_event_is_freed_at_once_not_by_the_collector():
    """A big event's snapshot (tens of megabytes at 10,000 players) goes when the last page
    using it drops it: nothing it is built or rendered with holds it in a reference cycle,
    which only the collector's full passes would free."""
    t = swiss_event(8, slug="kept-freed", rounds_done=2, open_round=True)
    gc.collect()
    gc.disable()
    try:
        with translation.override("ru"):
            event = load_event(t)
            assert "Игроков000" in _standings_fragment(event).html
        freed = weakref.ref(event)
        del event
        KeptInProcess.clear_all()
        assert freed() is None
    finally:
        gc.enable()
