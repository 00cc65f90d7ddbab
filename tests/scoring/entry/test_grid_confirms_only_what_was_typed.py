"""The results grid confirms only what the referee typed or ticked (seam found by the
whole-event simulator and by a chief arbiter: a grid saved as shown confirmed the players'
pending reports nobody had looked at)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import workflow
from scoring.models import ResultState
from tests.factories import OfficialFactory, PlayerFactory, TournamentFactory, UserFactory, enter
from tests.simulator.forms import form_fields
from tournaments.models import OfficialRole, ResultStatus
from tournaments.rounds import pairing_manager as pm


@pytest.fixture
def hall(db):
    """An 8-player Swiss, round 1 published; every player has an account; a referee."""
    t = TournamentFactory(slug="grid-hall", match_length=7, rounds_planned=3)
    org, referee = UserFactory(username="org"), UserFactory(username="ref")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    OfficialFactory(tournament=t, user=referee, role=OfficialRole.REFEREE)
    players = [PlayerFactory(user=UserFactory(username=f"p{i}")) for i in range(8)]
    enter(t, players)
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    return {"t": t, "referee": referee, "r1": r1}


def _url(hall) -> str:
    return reverse("manage-results", kwargs={"slug": hall["t"].slug, "round_id": hall["r1"].pk})


def _report(match, final):
    return workflow.submit_result(match.pk, match.entry_a.player.user, version=match.version, final=final)


def test_grid_saved_as_shown_confirms_no_pending_report(client, hall):
    first, second = hall["r1"].matches.order_by("table")[:2]
    report = _report(first, (7, 0))
    client.force_login(hall["referee"])
    fields = form_fields(client.get(_url(hall)).content.decode())
    fields[f"m{second.pk}-a"], fields[f"m{second.pk}-b"] = "7", "3"  # the referee types another table
    client.post(_url(hall), fields)
    first.refresh_from_db()
    report.refresh_from_db()
    assert first.result_status == ResultStatus.REPORTED
    assert report.state == ResultState.REPORTED
    second.refresh_from_db()
    assert (second.score_a, second.score_b, second.result_status) == (7, 3, ResultStatus.CONFIRMED)


def test_grid_shows_the_pending_report_with_a_confirm_box_that_confirms_it(client, hall):
    first = hall["r1"].matches.order_by("table").first()
    report = _report(first, (7, 2))
    client.force_login(hall["referee"])
    html = client.get(_url(hall)).content.decode()
    assert "7:2" in html and f'name="m{first.pk}-confirm"' in html
    fields = form_fields(html)
    fields[f"m{first.pk}-confirm"] = "1"
    client.post(_url(hall), fields)
    report.refresh_from_db()
    first.refresh_from_db()
    assert report.state == ResultState.CONFIRMED
    assert (first.score_a, first.score_b, first.result_status) == (7, 2, ResultStatus.CONFIRMED)
    assert first.results.count() == 1  # the players' report itself, not a copy


def test_grid_disputed_row_is_not_refused_on_save_and_links_the_dispute(client, hall):
    first, second = hall["r1"].matches.order_by("table")[:2]
    report = _report(first, (7, 1))
    first.refresh_from_db()
    dispute = workflow.dispute_result(first.pk, report.pk, first.entry_b.player.user, version=first.version,
                                      reason="it was 1:7")  # fmt: skip
    client.force_login(hall["referee"])
    html = client.get(_url(hall)).content.decode()
    assert reverse("dispute-detail", kwargs={"slug": hall["t"].slug, "dispute_id": dispute.pk}) in html
    fields = form_fields(html)
    assert f"m{first.pk}-a" not in fields  # nothing to send back for the disputed table
    fields[f"m{second.pk}-a"], fields[f"m{second.pk}-b"] = "7", "0"
    answer = client.post(_url(hall), fields, follow=True)
    assert "refused" not in answer.content.decode() and "отклонено" not in answer.content.decode()
    first.refresh_from_db()
    assert first.result_status == ResultStatus.DISPUTED
