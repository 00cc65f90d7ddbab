"""An application withdrawn before round 1 leaves no trace in the tables (issue 49).

Eight players entered; Ли Анна withdrew before round 1 was drawn; the seven others played
round 1 (three tables and a bye). She was shown "3–8 Ли Анна (выбыл)" in the standings, the
overview and the hall, and every shared place counted her ("1–8" with seven players). Now she
is in none of them (her entry stays in the entries list, withdrawn), and places count seven.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import MatchFactory, RoundFactory, UserFactory, swiss_event
from tournaments.entries.status import withdraw
from tournaments.models import EntryStatus

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def event():
    t = swiss_event(8, slug="left-early", rounds_done=0, open_round=False)
    entries = list(t.entries.order_by("draw_number"))
    anna = entries[-1]
    anna.player.last_name, anna.player.first_name = "Ли", "Анна"
    anna.player.last_name_latin, anna.player.first_name_latin = "Li", "Anna"
    anna.player.save()
    withdraw(anna, UserFactory(is_superuser=True, is_staff=True), reason="ill")
    rnd = RoundFactory(tournament=t, number=1)  # published, results pending: everyone level on 0
    for k in range(3):
        MatchFactory(round=rnd, table=k + 1, entry_a=entries[2 * k], entry_b=entries[2 * k + 1])
    MatchFactory(round=rnd, table=4, entry_a=entries[6], bye=True)
    return t, anna


def _places(t) -> list[str]:
    data = APIClient().get(f"/api/tournaments/{t.slug}/standings/").json()
    return [row["place"] for section in data["sections"] for row in section["rows"]]


def test_a_player_withdrawn_before_round_one_is_in_no_table_and_no_shared_place(client, event):
    t, anna = event
    places = _places(t)
    assert len(places) == 7  # the API's standings: seven rows, not eight
    assert all("8" not in place for place in places), places  # no "1–8", no "2–8"
    for name in ("public-standings", "public-overview", "public-crosstable", "hall-frame"):
        for language in ("ru", "en"):
            body = client.get(reverse(name, kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE=language)
            text = body.content.decode()
            assert body.status_code == 200 and "Ли Анна" not in text and "Anna Li" not in text, (name, language)
            assert "–8" not in text, (name, language)
    frames = [client.get(reverse("hall-frame", kwargs={"slug": t.slug}) + f"?page={p}").content.decode()
              for p in (1, 2, 3)]  # fmt: skip
    assert not any("Ли Анна" in f for f in frames)
    anna.refresh_from_db()
    assert anna.status == EntryStatus.WITHDRAWN  # her entry is kept, marked withdrawn
    rows = APIClient().get(f"/api/tournaments/{t.slug}/entries/").json()
    assert anna.pk in [row["id"] for row in (rows["results"] if isinstance(rows, dict) else rows)]


def test_a_player_who_withdrew_after_playing_stays_in_the_standings_marked(client, event):
    t, _anna = event
    leaver = t.entries.get(draw_number=1)  # paired in round 1, then leaves
    withdraw(leaver, UserFactory(is_superuser=True, is_staff=True, username="desk2"), reason="left")
    assert len(_places(t)) == 7  # still seven rows: he played round 1, she never did
    page = client.get(reverse("public-standings", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert f"{leaver.player.last_name} {leaver.player.first_name}" in page.content.decode()
    assert "(выбыл(а))" in page.content.decode()
