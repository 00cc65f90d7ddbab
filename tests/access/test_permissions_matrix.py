"""Every results URL and action against every kind of visitor, checked on the server.

Actors (demo Swiss, round 3, table 1): ``anonymous``; ``player`` (A, who reports);
``opponent`` (B); ``other_player`` (plays at another table); ``other_referee`` (a
referee of the book tournament only — no rights here); ``referee``; ``organiser``
(the director); ``jury``. Expected: ``ok`` (the page shows or the action takes effect),
``403``, or ``login`` (anonymous visitors are sent to log in; nothing changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from scoring import workflow
from scoring.models import Dispute, DisputeState, Result, ResultState, Sanction
from tests.factories import OfficialFactory
from tournaments.models import (
    Entry,
    EntryStatus,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    Tournament,
)
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

pytestmark = pytest.mark.django_db
User = get_user_model()
ACTORS = [
    "anonymous",
    "player",
    "opponent",
    "other_player",
    "other_referee",
    "referee",
    "organiser",
    "jury",
]


@pytest.fixture(scope="module")
def book_referee(demo_once, django_db_blocker):
    """A referee of the book tournament only, added to the module's demo data."""
    with django_db_blocker.unblock():
        book = Tournament.objects.get(slug=BOOK_SLUG)
        return OfficialFactory(tournament=book, user__username="book-referee", role="referee").user


@dataclass
class World:
    match: Match
    users: dict[str, object]

    def fresh(self) -> Match:
        return Match.objects.get(pk=self.match.pk)

    def url(self, name: str, **kw) -> str:
        return reverse(name, kwargs={"slug": SWISS_SLUG, **kw})


@pytest.fixture
def world(book_referee, db) -> World:
    match = Match.objects.select_related("entry_a__player__user", "entry_b__player__user").get(
        round__tournament__slug=SWISS_SLUG, round__number=3, table=1
    )
    other = Match.objects.select_related("entry_a__player__user").get(
        round__tournament__slug=SWISS_SLUG, round__number=3, table=2
    )
    users = {name: User.objects.get(username=name) for name in ("referee", "organiser", "jury")}
    users |= {
        "player": match.entry_a.player.user,
        "opponent": match.entry_b.player.user,
        "other_player": other.entry_a.player.user,
        "other_referee": User.objects.get(username="book-referee"),
        "anonymous": None,
    }
    return World(match, users)


# -- the actions: each sets up its state and returns (method, url, data, did_it_take_effect)


def _report(w: World) -> Result:
    return workflow.submit_result(
        w.match.pk, w.users["player"], version=w.fresh().version, final=(7, 3)
    )


def _dispute(w: World) -> Dispute:
    result = _report(w)
    return workflow.dispute_result(
        w.match.pk, result.pk, w.users["opponent"], version=w.fresh().version, reason="not so"
    )


def _ruled(w: World) -> Dispute:
    d = _dispute(w)
    return workflow.rule_dispute(
        d.pk, w.users["organiser"], outcome="uphold", ruling="stands", version=w.fresh().version
    )


def _appealed(w: World) -> Dispute:
    d = _ruled(w)
    return workflow.appeal_dispute(d.pk, w.users["opponent"], reason="witnesses")


def _form(w: World, a: int, b: int, action: str = "confirm") -> dict:
    return {
        "version": w.fresh().version,
        "score_a": a,
        "score_b": b,
        "action": action,
        "games-TOTAL_FORMS": "0",
        "games-INITIAL_FORMS": "0",
    }


def get(name: str, **kw) -> Callable:
    def action(w: World):
        return "get", w.url(name, **kw), None, lambda: True

    return action


def get_match(name: str) -> Callable:
    def action(w: World):
        return "get", w.url(name, match_id=w.match.pk), None, lambda: True

    return action


def referee_enter(w: World):
    return (
        "post",
        w.url("referee-match", match_id=w.match.pk),
        _form(w, 7, 3),
        lambda: w.fresh().result_status == ResultStatus.CONFIRMED,
    )


def player_report(w: World):
    return (
        "post",
        w.url("result-match", match_id=w.match.pk),
        _form(w, 7, 3, "report"),
        lambda: Result.objects.filter(match=w.match).exists(),
    )


def confirm(w: World):
    result = _report(w)
    return (
        "post",
        w.url("result-confirm", match_id=w.match.pk),
        {"version": w.fresh().version, "result": result.pk},
        lambda: Result.objects.get(pk=result.pk).state == ResultState.CONFIRMED,
    )


def dispute(w: World):
    result = _report(w)
    return (
        "post",
        w.url("result-dispute", match_id=w.match.pk),
        {"version": w.fresh().version, "result": result.pk, "reason": "wrong score"},
        lambda: Dispute.objects.filter(match=w.match).exists(),
    )


def dispute_detail(w: World):
    d = _dispute(w)
    return "get", w.url("dispute-detail", dispute_id=d.pk), None, lambda: True


def _dispute_step(w: World, d: Dispute, name: str, data: dict, state: str):
    """POST one step of the dispute ``d``; it worked when the dispute reached ``state``."""
    return (
        "post",
        w.url(name, dispute_id=d.pk),
        data,
        lambda: Dispute.objects.get(pk=d.pk).state == state,
    )


def rule(w: World):
    d = _dispute(w)
    data = {"version": w.fresh().version, "outcome": "uphold", "text": "stands"}
    return _dispute_step(w, d, "dispute-rule", data, DisputeState.RULED)


def appeal(w: World):
    return _dispute_step(
        w, _ruled(w), "dispute-appeal", {"reason": "witnesses"}, DisputeState.APPEALED
    )


def decide(w: World):
    d = _appealed(w)
    data = {"jury-version": w.fresh().version, "jury-outcome": "sustain", "jury-text": "final"}
    return _dispute_step(w, d, "dispute-decide", data, DisputeState.FINAL)


def sanction(w: World):
    entry = w.match.entry_a
    return (
        "post",
        w.url("sanction-list"),
        {"entry": entry.pk, "kind": "warning", "reason": "slow play"},
        lambda: Sanction.objects.filter(entry=entry).exists(),
    )


def withdraw(w: World):
    entry = w.match.entry_b
    return (
        "post",
        w.url("desk-entry", entry_id=entry.pk, action="withdraw"),
        {"reason": "ill"},
        lambda: Entry.objects.get(pk=entry.pk).status == EntryStatus.WITHDRAWN,
    )


def close_round(w: World):
    rnd = w.match.round
    # Every result in, without the workflow's auto-close (results cannot be entered on a
    # draft round, so the round stays published and only the desk may close it here).
    rnd.matches.filter(entry_b__isnull=False).update(
        score_a=7, score_b=1, winner="a", result_status=ResultStatus.CONFIRMED
    )
    return (
        "post",
        w.url("desk-round-close", round_id=rnd.pk),
        {},
        lambda: Round.objects.get(pk=rnd.pk).status == RoundStatus.FINISHED,
    )


OK, NO, LOGIN = "ok", 403, "login"


def row(**overrides) -> dict[str, object]:
    """Everyone refused (anonymous sent to log in) unless overridden."""
    base: dict[str, object] = dict.fromkeys(ACTORS, NO)
    base["anonymous"] = LOGIN
    base.update(overrides)
    return base


OFFICIALS_ONLY = row(referee=OK, organiser=OK)
DIRECTOR_AND_JURY = row(organiser=OK, jury=OK)
MATRIX: list[tuple[str, Callable, dict[str, object]]] = [
    ("referee tables", get("referee-tables"), OFFICIALS_ONLY),
    ("referee match page", get_match("referee-match"), OFFICIALS_ONLY),
    ("referee enters a result", referee_enter, OFFICIALS_ONLY),
    ("my match", get("result-mine"), row(player=OK, opponent=OK, other_player=OK)),
    (
        "match page",
        get_match("result-match"),
        row(player=OK, opponent=OK, referee=OK, organiser=OK, jury=OK),
    ),
    ("player reports", player_report, row(player=OK, opponent=OK)),
    ("confirm a report", confirm, row(opponent=OK, referee=OK, organiser=OK)),
    ("dispute a report", dispute, row(opponent=OK)),
    ("dispute list", get("dispute-list"), DIRECTOR_AND_JURY),
    ("dispute page", dispute_detail, row(player=OK, opponent=OK, organiser=OK, jury=OK)),
    ("director rules", rule, row(organiser=OK)),
    ("appeal to the jury", appeal, row(player=OK, opponent=OK)),
    ("jury decides", decide, row(jury=OK)),
    ("discipline page", get("sanction-list"), DIRECTOR_AND_JURY),
    ("record a sanction", sanction, DIRECTOR_AND_JURY),
    ("audit log", get("audit-log"), DIRECTOR_AND_JURY),
    ("desk", get("desk"), row(organiser=OK)),
    ("withdraw a player", withdraw, row(organiser=OK)),
    ("close a round", close_round, row(organiser=OK)),
    ("live.json", get("live-json"), dict.fromkeys(ACTORS, OK)),
]


def attempt(client, world: World, action: Callable, actor: str, expected: object) -> str | None:
    """One actor tries one action; returns what went wrong, or None."""
    method, url, data, took_effect = action(world)
    client.logout()
    user = world.users[actor]
    if user is not None:
        client.force_login(user)
    response = client.get(url) if method == "get" else client.post(url, data or {})
    code = response.status_code
    location = response.get("Location", "")
    if expected == OK:
        if code not in (200, 302) or "/accounts/login/" in location:
            return f"expected success, got {code} {location}"
        if not took_effect():
            return "allowed, but nothing happened"
    elif expected == LOGIN:
        if code != 302 or "/accounts/login/" not in location:
            return f"expected a redirect to log in, got {code}"
        if method == "post" and took_effect():
            return "sent to log in, but the action took effect"
    else:
        if code != expected:
            return f"expected {expected}, got {code}"
        if method == "post" and took_effect():
            return "refused, but the action took effect"
    return None


@pytest.mark.parametrize(
    ("action", "expected"), [pytest.param(a, e, id=name) for name, a, e in MATRIX]
)
def test_permission_matrix(client, world, action, expected):
    """Each actor in its own savepoint, rolled back, so they all start from the same state."""
    failures = {}
    for actor in ACTORS:
        with transaction.atomic():
            problem = attempt(client, world, action, actor, expected[actor])
            transaction.set_rollback(True)
        if problem:
            failures[actor] = problem
    assert not failures, failures


def test_a_referee_cannot_reach_another_tournaments_match_through_their_own(client, world):
    book_match = Match.objects.filter(round__tournament__slug=BOOK_SLUG).first()
    client.force_login(world.users["referee"])
    response = client.get(
        reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": book_match.pk})
    )
    assert response.status_code == 404
    response = client.get(
        reverse("referee-match", kwargs={"slug": BOOK_SLUG, "match_id": book_match.pk})
    )
    assert response.status_code == 403


def test_services_refuse_without_the_view(world):
    """The services check too: a forged call from a player of another match is refused."""
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        workflow.submit_result(
            world.match.pk, world.users["other_player"], version=world.fresh().version, final=(7, 3)
        )
    with pytest.raises(PermissionDenied):
        workflow.submit_result(
            world.match.pk,
            world.users["player"],
            version=world.fresh().version,
            final=(7, 3),
            confirm=True,
        )
    assert not Result.objects.filter(match=world.match).exists()
