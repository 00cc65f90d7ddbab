"""The Django admin never writes or deletes a match result: it shows it and links to the workflow."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring import workflow
from scoring.models import Result, ResultState
from tournaments.models import AuditEntry, Game, Match, ResultStatus
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db


def user(name: str):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def admin_client(client, demo):
    client.force_login(user("admin"))
    return client


@pytest.fixture
def confirmed(demo) -> Match:
    """A demo-swiss round-3 match with a confirmed result entered through the workflow."""
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).first()
    workflow.submit_result(match.pk, user("referee"), version=match.version, final=(7, 4), confirm=True)
    match.refresh_from_db()
    assert match.result_status == ResultStatus.CONFIRMED
    return match


def _match_post(match: Match, score: tuple[int, int]) -> dict:
    return {
        "round": match.round_id, "table": match.table, "entry_a": match.entry_a_id,
        "entry_b": match.entry_b_id, "match_length": match.match_length or "",
        "result_status": "confirmed", "score_a": score[0], "score_b": score[1], "winner": "b",
        "games-TOTAL_FORMS": 1, "games-INITIAL_FORMS": 0,
        "games-MIN_NUM_FORMS": 0, "games-MAX_NUM_FORMS": 1000,
        "games-0-number": 1, "games-0-winner": "b", "games-0-kind": "single", "games-0-cube": 1,
    }


def test_admin_match_page_cannot_change_the_score(admin_client, confirmed):
    url = reverse("admin:tournaments_match_change", args=[confirmed.pk])
    before = (confirmed.score_a, confirmed.score_b, confirmed.winner, confirmed.version)
    games_before = list(Game.objects.filter(match=confirmed).values_list("pk", flat=True))
    response = admin_client.post(url, _match_post(confirmed, (0, 7)))
    assert response.status_code in (200, 302)  # the pairing fields may save; never a 500
    confirmed.refresh_from_db()
    assert (confirmed.score_a, confirmed.score_b, confirmed.winner) == before[:3]
    assert confirmed.result_status == ResultStatus.CONFIRMED
    assert list(Game.objects.filter(match=confirmed).values_list("pk", flat=True)) == games_before


def test_admin_match_page_shows_the_result_read_only_with_the_workflow_link(admin_client, confirmed):
    body = admin_client.get(reverse("admin:tournaments_match_change", args=[confirmed.pk])).content.decode()
    assert 'name="score_a"' not in body and 'name="winner"' not in body
    assert 'name="result_status"' not in body and 'name="games-0-kind"' not in body
    referee = reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": confirmed.pk})
    assert f'href="{referee}"' in body


def test_admin_cannot_delete_a_match_with_a_result(admin_client, confirmed):
    url = reverse("admin:tournaments_match_delete", args=[confirmed.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Match.objects.filter(pk=confirmed.pk).exists()
    changelist = reverse("admin:tournaments_match_changelist")
    response = admin_client.post(
        changelist, {"action": "delete_selected", "_selected_action": [confirmed.pk], "post": "yes"}
    )
    assert response.status_code < 500
    assert Match.objects.filter(pk=confirmed.pk).exists()
    rnd_delete = reverse("admin:tournaments_round_delete", args=[confirmed.round_id])
    assert admin_client.post(rnd_delete, {"post": "yes"}).status_code == 403
    assert Match.objects.filter(pk=confirmed.pk).exists()


def test_admin_cannot_change_add_or_delete_a_result(admin_client, confirmed):
    result = Result.objects.get(match=confirmed, state=ResultState.CONFIRMED)
    audit_count = AuditEntry.objects.count()
    change = reverse("admin:scoring_result_change", args=[result.pk])
    response = admin_client.post(
        change,
        {"match": confirmed.pk, "score_a": 7, "score_b": 5, "games": "[]", "state": "confirmed",
         "note": "typo on the sheet"},
    )
    assert response.status_code == 403
    delete = reverse("admin:scoring_result_delete", args=[result.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    add = reverse("admin:scoring_result_add")
    assert admin_client.post(add, {"match": confirmed.pk, "score_a": 7, "score_b": 0}).status_code == 403
    changelist = reverse("admin:scoring_result_changelist")
    admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [result.pk], "post": "yes"})
    result.refresh_from_db()
    assert (result.score_a, result.score_b, result.state) == (7, 4, ResultState.CONFIRMED)
    confirmed.refresh_from_db()
    assert (confirmed.score_a, confirmed.score_b) == (7, 4)
    assert AuditEntry.objects.count() == audit_count  # nothing happened, nothing to audit


def test_admin_result_page_links_to_the_workflow_pages(admin_client, confirmed):
    result = Result.objects.get(match=confirmed, state=ResultState.CONFIRMED)
    workflow.dispute_result(
        confirmed.pk, result.pk, confirmed.entry_b.player.user, version=confirmed.version,
        reason="I won that match",
    )
    dispute = confirmed.disputes.get()
    body = admin_client.get(reverse("admin:scoring_result_change", args=[result.pk])).content.decode()
    assert 'name="score_a"' not in body
    referee = reverse("referee-match", kwargs={"slug": SWISS_SLUG, "match_id": confirmed.pk})
    disputed = reverse("dispute-detail", kwargs={"slug": SWISS_SLUG, "dispute_id": dispute.pk})
    assert f'href="{referee}"' in body and f'href="{disputed}"' in body
    listing = admin_client.get(reverse("admin:scoring_result_changelist")).content.decode()
    assert f'href="{referee}"' in listing


def test_admin_games_cannot_be_edited_directly(admin_client, demo):
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).last()
    games = [{"winner": "a", "kind": "gammon"}] * 3 + [{"winner": "a", "kind": "single"}]
    workflow.submit_result(match.pk, user("referee"), version=match.version, games=games, confirm=True)
    game = Game.objects.filter(match=match).first()
    assert game is not None
    url = reverse("admin:tournaments_game_change", args=[game.pk])
    refused = admin_client.post(url, {"match": match.pk, "number": 1, "winner": "b", "kind": "single"})
    assert refused.status_code == 403
    delete = reverse("admin:tournaments_game_delete", args=[game.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    game.refresh_from_db()
    assert (game.winner, game.kind) == ("a", "gammon")
