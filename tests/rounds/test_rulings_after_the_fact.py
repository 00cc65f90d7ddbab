"""Rulings after the fact (issue 15, item 7): disputing a confirmed result within the window.

The organiser sets how long after a confirmation either player may still
dispute it (``Tournament.dispute_window``, minutes); the dispute names who
raised it, never the reporter of the disputed result.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import ClubRole
from scoring import workflow
from scoring.models import Dispute, Result, ResultState
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory, enter
from tournaments.models import AuditEntry, Match, Round, RoundStatus, Tournament
from tournaments.rounds.pairing_manager import generate_swiss, publish_round, recheck
from tournaments.standings_service import load_event
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def swiss(demo_once, db):
    return Tournament.objects.get(slug=SWISS_SLUG)


@pytest.fixture
def match(swiss):
    return Match.objects.select_related("entry_a__player__user", "entry_b__player__user").get(
        round__tournament=swiss, round__number=3, table=1
    )


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def confirmed_by_the_players(match) -> Result:
    a, b = match.entry_a.player.user, match.entry_b.player.user
    result = workflow.submit_result(match.pk, a, version=fresh(match).version, final=(7, 3))
    return workflow.confirm_result(match.pk, result.pk, b, version=fresh(match).version)


def url(name, match, **kw):
    return reverse(name, kwargs={"slug": SWISS_SLUG, "match_id": match.pk, **kw})


def test_within_the_window_the_confirming_player_disputes_and_is_named(client, swiss, match):
    swiss.dispute_window = 30
    swiss.save()
    result = confirmed_by_the_players(match)
    b = match.entry_b.player.user
    client.force_login(b)
    assert "Dispute this result" in client.get(url("result-match", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert client.get(url("result-dispute", match)).status_code == 302  # not 405: to the match page
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "It was 7:5, not 7:3"},
    )
    assert answer.status_code == 302
    dispute = Dispute.objects.get(match=match)
    assert dispute.raised_by == b and dispute.raised_side == "b"
    client.force_login(User.objects.get(username="organiser"))
    detail = client.get(
        reverse("dispute-detail", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    raised = detail[detail.index("Raised by"):][:300]
    b_name = match.entry_b.player.display_name("en")
    assert b_name in raised and match.entry_a.player.display_name("en") not in raised


@pytest.mark.parametrize(("lang", "words"), [("en", "time to dispute it has passed"), ("ru", "время для спора истекло")])
def test_after_the_window_the_dispute_is_refused_with_the_reason(client, swiss, match, lang, words):
    swiss.dispute_window = 30
    swiss.save()
    result = confirmed_by_the_players(match)
    Result.objects.filter(pk=result.pk).update(
        confirmed_at=result.confirmed_at - dt.timedelta(minutes=31)
    )
    a = match.entry_a.player.user
    client.force_login(a)
    page = client.get(url("result-match", match), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'name="reason"' not in page
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "late"},
        HTTP_ACCEPT_LANGUAGE=lang, follow=True,
    )
    assert words in answer.content.decode()
    assert not Dispute.objects.filter(match=match).exists()
    with pytest.raises(workflow.ResultError) as refused:
        workflow.dispute_result(match.pk, result.pk, a, version=fresh(match).version, reason="late")
    assert refused.value.problem.code == "workflow.dispute_window"


def test_without_a_window_players_who_confirmed_cannot_reopen_it(client, swiss, match):
    result = confirmed_by_the_players(match)
    assert swiss.dispute_window == 0
    client.force_login(match.entry_b.player.user)
    answer = client.post(
        url("result-dispute", match),
        {"version": fresh(match).version, "result": result.pk, "reason": "changed my mind"},
    )
    assert answer.status_code == 403
    assert fresh(match).result_status == "confirmed"
    assert Result.objects.get(pk=result.pk).state == ResultState.CONFIRMED


# --------------------------------------------------------------------------- later pairings



@pytest.fixture
def six(db):
    """A 6-player Swiss: round 1 played and confirmed (A wins every table), round 2 a draft."""
    club = ClubFactory()
    t = TournamentFactory(slug="six", club=club, rounds_planned=4, match_length=5)
    enter(t, [PlayerFactory(last_name=f"Игрок{i}", last_name_latin=f"Igrok{i}") for i in range(6)])
    boss = UserFactory(username="boss6")
    ClubRole.objects.create(club=club, user=boss)
    first = generate_swiss(t, user=boss)
    publish_round(first, user=boss)
    for m in first.matches.filter(entry_b__isnull=False).order_by("table"):
        workflow.submit_result(m.pk, boss, version=m.version, final=(5, 1), confirm=True)
    generate_swiss(t, user=boss)
    return t, boss


def test_a_ruling_on_a_finished_round_shows_later_pairings_and_the_director_re_pairs(client, six):
    t, boss = six
    first = Round.objects.get(tournament=t, number=1)
    second = Round.objects.get(tournament=t, number=2)
    assert first.status == RoundStatus.FINISHED and second.status == RoundStatus.DRAFT
    m = first.matches.get(table=1)
    winner_before = m.entry_a_id
    # the director corrects table 1 of the finished round: B won 5:3, not A 5:1
    workflow.submit_result(m.pk, boss, version=m.version, final=(3, 5), reason="score sheet re-read")
    row = load_event(t).standings[""].row(winner_before)
    assert row.values["wins"] == 0  # the standings follow at once

    [check] = recheck.later_rounds(Match.objects.get(pk=m.pk))
    assert check.round == second and check.repairable
    old_pairs = set(check.actual)

    client.force_login(boss)
    page = client.get(reverse("manage-rulings", kwargs={"slug": "six"}), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and "Was 5:1, now 3:5." in html
    assert check.changed  # draw 1 lost now: the new score groups pair round 2 differently
    assert "Pair this draft again" in html
    answer = client.post(
        reverse("manage-ruling-decide", kwargs={"slug": "six", "round_id": second.pk}),
        {"decision": "repair", "reason": "table 1 corrected"},
    )
    assert answer.status_code == 302
    new = Round.objects.get(tournament=t, number=2)
    pairs = {
        frozenset(p for p in pair if p is not None)
        for pair in new.matches.values_list("entry_a_id", "entry_b_id")
    }
    assert new.status == RoundStatus.DRAFT and pairs == check.recomputed != old_pairs
    assert AuditEntry.objects.filter(tournament=t, action="ruling.repair").exists()
    assert AuditEntry.objects.filter(tournament=t, action="round.delete_draft").exists()


def test_keeping_a_published_round_is_audited_and_shown(client, six):
    t, boss = six
    second = Round.objects.get(tournament=t, number=2)
    publish_round(second, user=boss)
    m = Round.objects.get(tournament=t, number=1).matches.get(table=1)
    workflow.submit_result(m.pk, boss, version=m.version, final=(3, 5), reason="re-read")
    [check] = recheck.later_rounds(Match.objects.get(pk=m.pk))
    assert not check.repairable  # published: the players have seen it
    client.force_login(boss)
    client.post(
        reverse("manage-ruling-decide", kwargs={"slug": "six", "round_id": second.pk}),
        {"decision": "keep", "reason": "round 2 already under way"},
    )
    entry = AuditEntry.objects.get(tournament=t, action="ruling.keep_pairings")
    assert entry.reason == "round 2 already under way" and entry.object_id == str(second.pk)
    html = client.get(reverse("manage-rulings", kwargs={"slug": "six"})).content.decode()
    assert "Pair this draft again" not in html
