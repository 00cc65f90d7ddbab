"""Deleting a tournament in the back office is refused with a message, not a 500 (issue 45).

Before: the admin's "delete" answered 500 ("save() prohibited to prevent data loss due to
unsaved related object"): the audit line of the deletion named a tournament that was gone.
A tournament's results and audit log must stay, so the back office never deletes one.
"""

from __future__ import annotations

import pytest

from tests.factories import ResultFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_deleting_a_tournament_in_the_admin_is_refused_with_a_message_and_keeps_it(admin_client):
    t = TournamentFactory(slug="kept")
    ResultFactory(match__round__tournament=t)
    delete = f"/admin/tournaments/tournament/{t.pk}/delete/"
    for answer in (admin_client.get(delete, HTTP_ACCEPT_LANGUAGE="en", follow=True),
                   admin_client.post(delete, {"post": "yes"}, HTTP_ACCEPT_LANGUAGE="en", follow=True)):
        assert answer.status_code == 200
        assert answer.redirect_chain[-1][0].endswith(f"/admin/tournaments/tournament/{t.pk}/change/")
        assert "A tournament is never deleted" in answer.content.decode()
    assert Tournament.objects.filter(pk=t.pk).exists()
    change = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    assert delete not in change  # no delete button offered
    listing = admin_client.get("/admin/tournaments/tournament/").content.decode()
    assert 'value="delete_selected"' not in listing
    ru = admin_client.get(delete, HTTP_ACCEPT_LANGUAGE="ru", follow=True).content.decode()
    assert "Турнир никогда не удаляется" in ru
