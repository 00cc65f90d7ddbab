"""The working day through the web pages: report → confirm, referee entry, corrections,
disputes with the director's ruling and the jury's final decision, discipline, round flow.

Runs on the demo Swiss (round 3 published, matches to 7 points without the cube); every
demo player logs in as ``player<draw number>``.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import workflow
from scoring.models import Dispute, DisputeState, Result, ResultState, Sanction
from tests import paths
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    enter,
)
from tournaments.models import (
    AuditEntry,
    Entry,
    EntryStatus,
    Game,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.rounds import flow as round_flow
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db
DATA = paths.DATA / "records"
User = get_user_model()


@pytest.fixture
def swiss(demo_once, db):
    return Tournament.objects.get(slug=SWISS_SLUG)


@pytest.fixture
def match(swiss):
    return Match.objects.select_related("entry_a__player__user", "entry_b__player__user").get(
        round__tournament=swiss, round__number=3, table=1
    )


def login(client, user):
    client.force_login(user)
    return client


def user(name: str):
    return User.objects.get(username=name)


def players(match):
    return match.entry_a.player.user, match.entry_b.player.user


def url(name: str, match, **kw):
    return reverse(name, kwargs={"slug": match.round.tournament.slug, "match_id": match.pk, **kw})


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def report(client, match, a: int | None, b: int | None, follow: bool = False, **extra):
    data = {
        "version": fresh(match).version,
        "score_a": "" if a is None else a,
        "score_b": "" if b is None else b,
        "action": "report",
        "games-TOTAL_FORMS": "0",
        "games-INITIAL_FORMS": "0",
        **extra,
    }
    return client.post(url("result-match", match), data, follow=follow)


def referee_post(client, match, a=None, b=None, games=(), action="confirm", **extra):
    data = {
        "version": fresh(match).version,
        "score_a": "" if a is None else a,
        "score_b": "" if b is None else b,
        "action": action,
        "games-TOTAL_FORMS": str(len(games)),
        "games-INITIAL_FORMS": "0",
    }
    for i, g in enumerate(games):
        for key, value in g.items():
            data[f"games-{i}-{key}"] = value
    data.update(extra)
    return client.post(url("referee-match", match), data)


def test_player_reports_and_the_opponent_confirms(client, match):
    a_user, b_user = players(match)
    response = report(login(client, a_user), match, 7, 3)
    assert response.status_code == 302
    m = fresh(match)
    assert m.result_status == ResultStatus.REPORTED and m.score_a is None
    reported = Result.objects.get(match=match)
    assert reported.state == ResultState.REPORTED and reported.reported_by == a_user

    page = login(client, b_user).get(url("result-match", match))
    assert f'name="result" value="{reported.pk}"' in page.content.decode()
    response = client.post(
        url("result-confirm", match), {"version": fresh(match).version, "result": reported.pk}
    )
    assert response.status_code == 302
    m = fresh(match)
    assert (m.result_status, m.score_a, m.score_b, m.winner) == ("confirmed", 7, 3, "a")
    reported.refresh_from_db()
    assert reported.state == ResultState.CONFIRMED and reported.confirmed_by == b_user
    actions = list(AuditEntry.objects.filter(object_type="result").values_list("action", "user"))
    assert ("result.report", a_user.pk) in actions and ("result.confirm", b_user.pk) in actions
    change = AuditEntry.objects.filter(action="match.result", object_id=str(match.pk)).first()
    assert change.before["result_status"] == "reported"
    assert change.after["result_status"] == "confirmed" and change.after["score_a"] == 7


def test_the_reporter_cannot_confirm_their_own_report(client, match):
    a_user, _b = players(match)
    report(login(client, a_user), match, 7, 3)
    result = Result.objects.get(match=match)
    response = client.post(
        url("result-confirm", match), {"version": fresh(match).version, "result": result.pk}
    )
    assert response.status_code == 403
    assert fresh(match).result_status == ResultStatus.REPORTED


def test_referee_enters_game_by_game_and_the_ledger_becomes_official(client, match):
    games = [
        {"winner": "a", "kind": "gammon", "cube": 1},
        {"winner": "b", "kind": "single", "cube": 1},
        {"winner": "a", "kind": "backgammon", "cube": 1},
        {"winner": "a", "kind": "gammon", "cube": 1},
    ]
    response = referee_post(login(client, user("referee")), match, games=games)
    assert response.status_code == 302
    m = fresh(match)
    assert (m.score_a, m.score_b, m.winner, m.result_status) == (7, 1, "a", "confirmed")
    ledger = list(Game.objects.filter(match=match).values_list("number", "winner", "kind"))
    assert ledger == [
        (1, "a", "gammon"),
        (2, "b", "single"),
        (3, "a", "backgammon"),
        (4, "a", "gammon"),
    ]


def test_problems_are_shown_next_to_the_input_which_is_kept(client, match):
    login(client, user("referee"))
    response = referee_post(client, match, 7, 7)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="score_a" value="7"' in html and 'name="score_b" value="7"' in html
    assert "Not saved" in html or "Не сохранено" in html or "errorlist" in html
    games = [
        {"winner": "a", "kind": "single", "cube": 1},
        {"winner": "a", "kind": "gammon", "cube": 2},
    ]  # no cube in this tournament
    response = referee_post(client, match, games=games)
    html = response.content.decode()
    assert response.status_code == 200
    assert "has-error" in html
    assert 'name="games-1-cube" value="2"' in html  # the typed row is still there
    assert Result.objects.filter(match=match).count() == 0
    assert fresh(match).result_status == ResultStatus.PENDING


def test_a_correction_after_confirmation_needs_a_reason(client, match):
    login(client, user("referee"))
    assert referee_post(client, match, 7, 3).status_code == 302
    response = referee_post(client, match, 3, 7)
    assert response.status_code == 200
    assert fresh(match).score_a == 7  # nothing changed without a reason
    response = referee_post(client, match, 3, 7, reason="Players swapped the score sheet")
    assert response.status_code == 302
    m = fresh(match)
    assert (m.score_a, m.score_b, m.winner) == (3, 7, "b")
    states = sorted(Result.objects.filter(match=match).values_list("state", flat=True))
    assert states == [ResultState.CONFIRMED, ResultState.SUPERSEDED]
    entry = AuditEntry.objects.get(action="result.correct")
    assert entry.reason == "Players swapped the score sheet" and entry.user == user("referee")


def test_a_player_cannot_change_a_confirmed_result(client, match):
    a_user, _b = players(match)
    login(client, user("referee"))
    referee_post(client, match, 7, 3)
    response = report(login(client, a_user), match, 3, 7)
    assert response.status_code == 403
    assert fresh(match).score_a == 7


def test_stale_version_is_refused_plainly_and_the_input_kept(client, match):
    login(client, user("referee"))
    old = fresh(match).version
    workflow.submit_result(match.pk, user("organiser"), version=old, final=(7, 2), confirm=True)
    data = {
        "version": old,
        "score_a": 7,
        "score_b": 5,
        "action": "confirm",
        "games-TOTAL_FORMS": "0",
        "games-INITIAL_FORMS": "0",
    }
    response = client.post(url("referee-match", match), data)
    assert response.status_code == 409
    html = response.content.decode()
    assert 'name="score_b" value="5"' in html
    assert f'name="version" value="{fresh(match).version}"' in html
    assert fresh(match).score_b == 2


def test_confirming_twice_gives_a_message_not_an_error(client, match):
    a_user, b_user = players(match)
    report(login(client, a_user), match, 7, 3)
    result = Result.objects.get(match=match)
    login(client, b_user)
    client.post(
        url("result-confirm", match), {"version": fresh(match).version, "result": result.pk}
    )
    response = client.post(
        url("result-confirm", match),
        {"version": fresh(match).version, "result": result.pk},
        follow=True,
    )
    assert response.status_code == 200
    assert Result.objects.filter(match=match, state=ResultState.CONFIRMED).count() == 1
    assert any(
        "already confirmed" in str(m) or "уже подтверждён" in str(m)
        for m in response.context["messages"]
    )


def test_dispute_director_ruling_then_jury_appeal_is_final(client, match):
    a_user, b_user = players(match)
    report(login(client, a_user), match, 7, 3)
    result = Result.objects.get(match=match)
    login(client, b_user)
    response = client.post(
        url("result-dispute", match),
        {
            "version": fresh(match).version,
            "result": result.pk,
            "reason": "The last game was a single, not a gammon: the score is 6:3 and we play on",
        },
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get(match=match)
    assert dispute.state == DisputeState.OPEN and dispute.raised_by == b_user
    assert fresh(match).result_status == ResultStatus.DISPUTED
    # nobody confirms a disputed report: a plain message, nothing changes
    page = client.post(
        url("result-confirm", match),
        {"version": fresh(match).version, "result": result.pk},
        follow=True,
    )
    assert page.status_code == 200 and list(page.context["messages"])
    assert fresh(match).result_status == ResultStatus.DISPUTED

    dispute_url = reverse("dispute-rule", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk})
    assert client.post(dispute_url, {}).status_code == 403  # a player does not rule
    login(client, user("organiser"))
    response = client.post(
        dispute_url,
        {
            "version": fresh(match).version,
            "outcome": "uphold",
            "text": "The referee saw the gammon.",
        },
    )
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED and dispute.ruled_by == user("organiser")
    assert (fresh(match).score_a, fresh(match).result_status) == (7, "confirmed")

    appeal_url = reverse("dispute-appeal", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk})
    login(client, b_user)
    assert (
        client.post(appeal_url, {"reason": "Two spectators saw a single game"}).status_code == 302
    )
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.APPEALED

    decide_url = reverse("dispute-decide", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk})
    login(client, user("organiser"))
    assert client.post(decide_url, {}).status_code == 403  # the director is not the jury
    login(client, user("jury"))
    response = client.post(
        decide_url,
        {
            "jury-version": fresh(match).version,
            "jury-outcome": "replace",
            "jury-score_a": 3,
            "jury-score_b": 7,
            "jury-text": "Witnesses agree.",
        },
    )
    assert response.status_code == 302
    dispute.refresh_from_db()
    m = fresh(match)
    assert dispute.state == DisputeState.FINAL and dispute.jury_by == user("jury")
    assert (m.score_a, m.score_b, m.winner, m.result_status) == (3, 7, "b", "confirmed")
    assert Result.objects.filter(match=match, state=ResultState.CONFIRMED).count() == 1
    # the jury's decision is final: no second appeal, no second decision
    login(client, b_user)
    page = client.post(appeal_url, {"reason": "again"})
    assert page.status_code == 200 and Dispute.objects.get(pk=dispute.pk).state == "final"
    with pytest.raises(workflow.ResultError):
        workflow.decide_appeal(
            dispute.pk, user("jury"), outcome="uphold", decision="x", version=None
        )
    actions = set(AuditEntry.objects.filter(object_type="dispute").values_list("action", flat=True))
    assert actions == {"dispute.open", "dispute.rule", "dispute.appeal", "dispute.final"}


def test_an_invalid_replacement_score_is_refused_by_the_rules(match):
    a_user, b_user = players(match)
    workflow.submit_result(match.pk, a_user, version=fresh(match).version, final=(7, 3))
    result = Result.objects.get(match=match)
    dispute = workflow.dispute_result(
        match.pk, result.pk, b_user, version=fresh(match).version, reason="wrong"
    )
    with pytest.raises(workflow.InvalidResult):
        workflow.rule_dispute(
            dispute.pk, user("organiser"), outcome="replace", ruling="x", version=None, final=(7, 7)
        )
    assert Dispute.objects.get(pk=dispute.pk).state == DisputeState.OPEN


def test_record_paste_is_replayed_and_problems_located(client, match):
    text = (DATA / "book_game1_backgammon.txt").read_text(encoding="utf-8")
    broken = text.replace("6–2 13/7, 13/11", "6–2 13/5, 13/11", 1)
    assert broken != text
    login(client, user("referee"))
    response = referee_post(client, match, 7, 3, record=broken)
    assert response.status_code == 200
    html = response.content.decode()
    assert "13/5" in html  # the pasted record is kept in the text box
    assert ("move 1" in html.lower()) or ("ход 1" in html.lower())
    # the place is said once, not "ход 1, белые «…»: Ход 1, белые: …"
    assert html.lower().count("ход 1, белые") == 1
    assert Result.objects.filter(match=match).count() == 0


def test_mat_upload_in_a_cubeless_event_is_refused_and_kept(client, match):
    mat = (DATA / "gnubg_match7_seed5.mat").read_bytes()
    login(client, user("referee"))
    upload = SimpleUploadedFile("match.mat", mat, content_type="text/plain")
    response = referee_post(client, match, mat_file=upload)
    assert response.status_code == 200
    html = response.content.decode()
    assert "has-error" in html or "problems" in html
    assert "7 point match" in html  # the file's text is now in the text box
    assert Result.objects.filter(match=match).count() == 0


@pytest.fixture
def cube_match(swiss):
    """A 7-point match with the cube (gnubg's self-play files use it)."""
    t = TournamentFactory(
        name="Cube open",
        slug="cube-open",
        starts_on=dt.date(2026, 12, 1),
        match_length=7,
        cube=True,
        rounds_planned=None,
    )
    OfficialFactory(tournament=t, user=user("referee"), role="referee")
    a, b = enter(t, [e.player for e in swiss.entries.order_by("draw_number")[:2]])
    rnd = RoundFactory(tournament=t, number=1, match_length=7)
    return MatchFactory(round=rnd, table=1, entry_a=a, entry_b=b, match_length=7)


def test_a_clean_mat_upload_gives_the_official_ledger(client, cube_match):
    mat = (DATA / "gnubg_match7_seed5.mat").read_bytes()
    login(client, user("referee"))
    # The file names its own players ("gnubg", "root"): its score decides nothing until a
    # person says who is who; the page keeps the file and asks.
    response = referee_post(
        client, cube_match, mat_file=SimpleUploadedFile("m.mat", mat, content_type="text/plain")
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "gnubg" in html and 'name="mat_first"' in html
    assert not Result.objects.filter(match=cube_match).exists()
    response = referee_post(
        client, cube_match, mat_file=SimpleUploadedFile("m.mat", mat, content_type="text/plain"),
        mat_first="a",
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    m = fresh(cube_match)
    assert m.result_status == "confirmed" and max(m.score_a, m.score_b) >= 7
    games = list(Game.objects.filter(match=m).order_by("number"))
    assert len(games) == 6
    assert [g.cube for g in games] == [2, 4, 1, 2, 1, 2]
    assert games[4].dropped and games[0].record.lstrip().startswith("Game 1")
    assert Round.objects.get(pk=m.round_id).status == RoundStatus.FINISHED  # its only match


def test_the_round_closes_when_every_result_is_confirmed(swiss):
    rnd = swiss.rounds.get(number=3)
    before = round_flow.live_state(swiss)["stamp"]
    referee = user("referee")
    matches = list(rnd.matches.order_by("table"))
    for m in matches[:-1]:
        workflow.submit_result(m.pk, referee, version=m.version, final=(7, 2), confirm=True)
    assert not round_flow.round_complete(rnd)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    last = matches[-1]
    workflow.submit_result(last.pk, referee, version=last.version, final=(1, 7), confirm=True)
    assert round_flow.round_complete(rnd)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.FINISHED
    assert AuditEntry.objects.filter(action="round.close", object_id=str(rnd.pk)).exists()
    assert round_flow.live_state(swiss)["stamp"] != before


def test_live_json_reports_the_version_stamp(client, match):
    response = client.get(reverse("live-json", kwargs={"slug": SWISS_SLUG}))
    assert response.status_code == 200
    data = response.json()
    assert data["round"] == 3 and data["status"] == "published"
    workflow.submit_result(
        match.pk, user("referee"), version=match.version, final=(7, 0), confirm=True
    )
    assert (
        client.get(reverse("live-json", kwargs={"slug": SWISS_SLUG})).json()["stamp"]
        != data["stamp"]
    )


def test_discipline_warning_before_penalty_and_disqualification_withdraws(client, swiss):
    entry = swiss.entries.get(draw_number=5)
    organiser = user("organiser")
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(
            swiss, entry, organiser, kind="penalty", reason="slow play", points=1
        )
    assert refused.value.code == "warning_first"
    login(client, organiser)
    sanctions = reverse("sanction-list", kwargs={"slug": SWISS_SLUG})
    for kind, points in (("warning", ""), ("penalty", "1")):
        response = client.post(
            sanctions,
            {
                "entry": entry.pk,
                "kind": kind,
                "points": points,
                "reason": "slow play, 3 minutes a move",
            },
        )
        assert response.status_code == 302
    login(client, user("jury"))
    response = client.post(
        sanctions,
        {"entry": entry.pk, "kind": "disqualification", "reason": "insulted the opponent"},
    )
    assert response.status_code == 302
    kinds = list(
        Sanction.objects.filter(entry=entry)
        .order_by("at", "pk")
        .values_list("kind", "decided_by__username", "decided_as")
    )
    assert kinds == [
        ("warning", "organiser", "director"),
        ("penalty", "organiser", "director"),
        ("disqualification", "jury", "jury"),
    ]
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.WITHDRAWN
    assert AuditEntry.objects.filter(action="entry.disqualify", user=user("jury")).exists()


def test_desk_check_in_withdraw_and_the_audit_page(client, swiss):
    entry = swiss.entries.get(draw_number=7)
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.REGISTERED)
    login(client, user("organiser"))
    base = {"slug": SWISS_SLUG, "entry_id": entry.pk}
    client.post(reverse("desk-entry", kwargs={**base, "action": "check-in"}))
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.CHECKED_IN
    client.post(
        reverse("desk-entry", kwargs={**base, "action": "withdraw"}), {"reason": "fell ill"}
    )
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.WITHDRAWN
    audit_url = reverse("audit-log", kwargs={"slug": SWISS_SLUG})
    page = client.get(audit_url, {"action": "withdraw"})
    assert page.status_code == 200
    rows = list(page.context["page"])
    assert [r.action for r in rows] == ["entry.withdraw"]
    assert rows[0].before["status"] == "checked_in" and rows[0].after["status"] == "withdrawn"
    assert rows[0].reason == "fell ill"
    body = page.content.decode()
    assert "fell ill" in body
    assert "Статус</span>: Отметился → Выбыл" in body  # field label: old → new, not JSON


def test_round_close_button_refuses_an_incomplete_round(client, swiss):
    rnd = swiss.rounds.get(number=3)
    login(client, user("organiser"))
    response = client.post(
        reverse("desk-round-close", kwargs={"slug": SWISS_SLUG, "round_id": rnd.pk}), follow=True
    )
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    assert any("1" in str(m) for m in response.context["messages"])


def test_both_players_reporting_the_same_score_confirms_it(client, match):
    a_user, b_user = players(match)
    report(login(client, a_user), match, 7, 3)
    page = login(client, b_user).get(url("result-match", match))
    assert 'name="score_a"' not in page.content.decode()  # confirm or dispute, not re-report
    response = report(client, match, 5, 7, follow=True)
    assert fresh(match).result_status == ResultStatus.REPORTED  # a different score is refused
    assert "7:3" in response.content.decode()
    assert report(client, match, 7, 3).status_code == 302
    m = fresh(match)
    assert (m.result_status, m.score_a, m.score_b) == ("confirmed", 7, 3)
    assert Result.objects.get(match=match, state="confirmed").confirmed_by == b_user


def test_director_voids_a_report_and_the_match_is_entered_again(match):
    a_user, b_user = players(match)
    workflow.submit_result(
        match.pk,
        user("referee"),
        version=fresh(match).version,
        games=[{"winner": "a", "kind": "backgammon"}] * 3,
        confirm=True,
    )
    assert Game.objects.filter(match=match).count() == 3
    confirmed = Result.objects.get(match=match, state=ResultState.CONFIRMED)
    dispute = workflow.dispute_result(
        match.pk,
        confirmed.pk,
        b_user,
        version=fresh(match).version,
        reason="we never played game 3",
    )
    workflow.rule_dispute(
        dispute.pk,
        user("organiser"),
        outcome="void",
        ruling="Replay.",
        version=fresh(match).version,
    )
    m = fresh(match)
    assert (m.result_status, m.score_a, m.score_b, m.winner) == ("pending", None, None, "")
    assert not Game.objects.filter(match=match).exists()
    assert Result.objects.get(pk=confirmed.pk).state == ResultState.REJECTED
    # the match can now be entered again
    workflow.submit_result(match.pk, user("referee"), version=m.version, final=(7, 5), confirm=True)
    assert fresh(match).score_b == 5


def test_audit_record_is_public_for_pairings_and_entries(swiss):
    """Other apps (pairing, registration) log their changes through the same helper."""
    from tournaments import audit

    rnd = swiss.rounds.get(number=3)
    before = audit.snapshot(rnd)
    entry = audit.record(
        user("organiser"),
        swiss,
        "round.publish",
        rnd,
        before,
        {**before, "status": "published"},
        reason="on time",
    )
    assert (entry.object_type, entry.object_id) == ("round", str(rnd.pk))
    assert entry.before["number"] == 3 and entry.after["status"] == "published"
    swap = audit.record(None, swiss, "pairing.swap", ("match", 99), {"table": 1}, {"table": 2})
    assert swap.user is None and swap.object_id == "99"


@pytest.mark.usefixtures("fresh_cache")  # the stamp is cached; another test's may share its key
def test_the_live_refresh_snippet_carries_the_current_stamp(rf, swiss):
    from django.template.loader import render_to_string

    html = render_to_string(
        "scoring/entry/_live_refresh.html", {"tournament": swiss}, request=rf.get("/")
    )
    stamp = round_flow.live_state(swiss)["stamp"]
    assert f'data-stamp="{stamp}"' in html
    assert reverse("live-json", kwargs={"slug": SWISS_SLUG}) in html
