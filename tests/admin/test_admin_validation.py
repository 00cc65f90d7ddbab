"""The admin validates through the same match-rules core as every other path.

That the admin never writes a result is tests/test_admin_results_readonly.py."""

import pytest
from django.urls import reverse

from scoring.models import Result
from tournaments.models import Match
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, demo):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="admin"))
    return client


def test_result_model_validation_refuses_an_implausible_summary(demo):
    from django.core.exceptions import ValidationError

    match = Match.objects.filter(round__tournament__slug=BOOK_SLUG).first()
    with pytest.raises(ValidationError) as info:
        Result(match=match, score_a=9, score_b=4).full_clean()
    (message,) = info.value.message_dict["__all__"]
    assert "9:4" in message
    Result(match=match, score_a=7, score_b=4).full_clean()  # 4:4, then a backgammon: the book's own example


def test_admin_changes_to_entries_are_audited(admin_client):
    from tournaments.models import AuditEntry, Entry

    entry = Entry.objects.filter(tournament__slug=SWISS_SLUG).order_by("draw_number").first()
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    response = admin_client.post(url, {
        "tournament": entry.tournament_id, "player": entry.player_id, "draw_number": entry.draw_number,
        "status": "withdrawn", "seed_rating": entry.seed_rating or "", "section": "",
    })
    assert response.status_code == 302, response.content.decode()[:1500]
    log = AuditEntry.objects.get(object_type="entry", object_id=str(entry.pk), action="admin.change")
    assert log.before["status"] == "checked_in" and log.after["status"] == "withdrawn"
    assert log.user.username == "admin" and log.tournament.slug == SWISS_SLUG
