"""Issue 47: a round's results in one call — ``POST /api/rounds/<id>/results/``, the results grid's twin.

Each row goes through the grid page's own service (:func:`scoring.workflow.grid.enter_row`):
checked by the rules core, saved or refused alone with its problems, nothing written for
a refused row, the same audit lines as the page; an Idempotency-Key covers the batch.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Result, ResultState
from tests.factories import OfficialFactory, UserFactory, swiss_event
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import AuditEntry, Match, OfficialRole, Round, RoundStatus, TokenScope

pytestmark = pytest.mark.django_db


def _desk(tournament) -> Client:
    referee = UserFactory()
    OfficialFactory(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
    _token, key = issue_token(referee, "desk", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


def _open_round(size: int = 8):
    tournament = swiss_event(size, rounds_done=0)
    rnd = Round.objects.get(tournament=tournament, status=RoundStatus.PUBLISHED)
    return tournament, rnd, list(rnd.matches.order_by("table"))


def _post(client, rnd, body, **headers):
    return client.post(f"/api/rounds/{rnd.pk}/results/", body, content_type="application/json", **headers)


def test_a_whole_round_goes_in_with_one_call_and_closes_the_round():
    tournament, rnd, matches = _open_round()
    answer = _post(_desk(tournament), rnd, {"results": [
        {"match": m.pk, "final": [5, 2] if m.table % 2 else [1, 5], "version": m.version} for m in matches
    ]})  # fmt: skip
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["saved"], body["refused"], body["unchanged"]) == (4, 0, 0)
    assert [r["state"] for r in body["rows"]] == ["saved"] * 4
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.FINISHED  # the last confirmation closes the round, as on the page
    assert [(m.score_a, m.score_b) for m in Match.objects.filter(round=rnd).order_by("table")] == [
        (5, 2), (1, 5), (5, 2), (1, 5),
    ]  # fmt: skip


def test_the_api_writes_the_same_audit_lines_as_the_grid_page(client):
    page_event, page_round, page_matches = _open_round(4)
    api_event, api_round, api_matches = _open_round(4)
    referee = UserFactory()
    OfficialFactory(tournament=page_event, user=referee, role=OfficialRole.REFEREE)
    client.force_login(referee)
    fields = {f"m{m.pk}-{k}": v for m in page_matches for k, v in (("a", "5"), ("b", "3"), ("version", m.version))}
    page = client.post(reverse("manage-results", kwargs={"slug": page_event.slug, "round_id": page_round.pk}), fields)
    assert page.status_code == 302
    _post(_desk(api_event), api_round, {"results": [{"match": m.pk, "final": [5, 3]} for m in api_matches]})

    def lines(tournament):
        return sorted(
            (a.action, a.object_type, a.after.get("score_a") if a.after else None)
            for a in AuditEntry.objects.filter(tournament=tournament)
        )

    assert lines(page_event) == lines(api_event) and lines(api_event)


def test_each_row_is_checked_alone_and_a_refused_row_writes_nothing():
    tournament, rnd, matches = _open_round()
    other_event, other_round, [foreign, *_] = _open_round(4)
    stale = matches[1]
    stale_version = stale.version
    Match.objects.filter(pk=stale.pk).update(version=stale_version + 1)  # someone saved it since
    answer = _post(_desk(tournament), rnd, {"results": [
        {"match": matches[0].pk, "final": [5, 3]},
        {"match": stale.pk, "final": [5, 0], "version": stale_version},
        {"match": matches[2].pk, "final": [5, 5]},  # no winner in a match to 5: the rules core refuses
        {"match": foreign.pk, "final": [5, 1]},
        {"match": matches[0].pk, "final": [0, 5]},
    ]}, HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 200
    body = answer.json()
    assert (body["saved"], body["refused"]) == (1, 4)
    states = [(r["match"], r["state"], [p["code"] for p in r["problems"]]) for r in body["rows"]]
    assert states[0] == (matches[0].pk, "saved", [])
    assert states[1] == (stale.pk, "refused", ["workflow.stale"])
    assert states[2][1] == "refused" and states[2][2] and all(not c.startswith("workflow.stale") for c in states[2][2])
    assert states[3] == (foreign.pk, "refused", ["grid.not_in_round"])
    assert states[4] == (matches[0].pk, "refused", ["grid.duplicate_row"])
    assert body["rows"][1]["version"] == stale_version + 1  # what to send to retry
    assert "Матч" in body["rows"][3]["problems"][0]["message"]  # in the caller's language
    for refused in (stale, matches[2], foreign):
        refused.refresh_from_db()
        assert refused.score_a is None and not refused.results.exists()
    assert Match.objects.get(pk=matches[0].pk).score_a == 5  # the first row, not the duplicate


def test_a_players_report_with_the_same_score_is_confirmed_as_it_stands():
    tournament, rnd, matches = _open_round(4)
    first = matches[0]
    player = Client(HTTP_AUTHORIZATION=f"Bearer {private_links.api_key_for(first.entry_a)}")
    reported = player.post(f"/api/matches/{first.pk}/report/", {"final": [5, 4], "version": first.version},
                           content_type="application/json").json()  # fmt: skip
    answer = _post(_desk(tournament), rnd, {"results": [{"match": first.pk, "final": [5, 4]}]}).json()
    assert answer["rows"][0]["result"] == reported["id"]
    assert Result.objects.get(pk=reported["id"]).state == ResultState.CONFIRMED


def test_a_retry_with_the_same_idempotency_key_replays_the_answer_and_writes_nothing_more():
    tournament, rnd, matches = _open_round(4)
    desk = _desk(tournament)
    body = {"results": [{"match": m.pk, "final": [5, 1]} for m in matches]}
    first = _post(desk, rnd, body, HTTP_IDEMPOTENCY_KEY="round-1-sheet")
    lines = AuditEntry.objects.count()
    again = _post(desk, rnd, body, HTTP_IDEMPOTENCY_KEY="round-1-sheet")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and AuditEntry.objects.count() == lines


def test_permission_comes_before_the_body_and_a_draft_round_is_refused():
    tournament, rnd, matches = _open_round(4)
    _token, key = issue_token(UserFactory(), "not an official", TokenScope.WRITE)
    outsider = _post(Client(HTTP_AUTHORIZATION=f"Token {key}"), rnd, {"results": "nonsense"})
    assert outsider.status_code == 403 and outsider.json()["code"] == "workflow.forbidden"
    draft = Round.objects.create(tournament=tournament, number=2, status=RoundStatus.DRAFT)
    refused = _post(_desk(tournament), draft, {"results": [{"match": matches[0].pk, "final": [5, 1]}]})
    assert refused.status_code == 409 and refused.json()["code"] == "workflow.draft_round"
    invalid = _post(_desk(tournament), rnd, {"results": [{"match": matches[0].pk, "final": [5]}]})
    assert invalid.status_code == 400 and list(invalid.json()["errors"]) == ["results.0.final"]


def test_options_on_the_bulk_results_describes_it_instead_of_failing():
    tournament, rnd, _matches = _open_round(4)
    answer = _desk(tournament).options(f"/api/rounds/{rnd.pk}/results/")
    assert answer.status_code == 200 and "POST" in answer["Allow"]
