"""Who reported and who confirmed a result, as the official's dispute page and the match page say it (issue 30).

The dispute page listed "5:3 Confirmed —" for a report made through a private link
(no account behind it), and the match page's "7:0 Confirmed by Silva Ana…;
confirmed by organiser" read as if the reporter had confirmed. Both now say
"Reported by X; confirmed by Y" from one partial (scoring/entry/_result_people.html).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import workflow
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.access.private_links import LinkHolder
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm


@pytest.fixture
def disputed(db):
    """A reports 5:3 through the private link, the organiser confirms, B (through the link) disputes."""
    t = TournamentFactory(name="Кубок слов", slug="words-cup", match_length=5, rounds_planned=None)
    org = UserFactory(username="organiser", first_name="Olga", last_name="Orlova")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    enter(t, [
        {"last_name": last, "first_name": first, "last_name_latin": latin, "first_name_latin": "Ana"}
        for last, first, latin in (("Сильва", "Ана", "Silva"), ("Мамедова", "Ана", "Mamedova"),
                                   ("Иванова", "Ана", "Ivanova"), ("Петрова", "Ана", "Petrova"))
    ])
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    match = r1.matches.select_related("entry_a__player", "entry_b__player").order_by("table").first()
    result = workflow.submit_result(match.pk, LinkHolder(match.entry_a), version=match.version, final=(5, 3))
    match.refresh_from_db()
    workflow.confirm_result(match.pk, result.pk, org, version=match.version)
    match.refresh_from_db()
    dispute = workflow.dispute_result(
        match.pk, result.pk, LinkHolder(match.entry_b), version=match.version, reason="Было 3:5"
    )
    return {"t": t, "org": org, "match": match, "dispute": dispute}


def _page(client, user, lang: str, name: str, **kwargs) -> str:
    client.cookies["django_language"] = lang
    client.force_login(user)
    response = client.get(reverse(name, kwargs={"slug": "words-cup", **kwargs}))
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def test_dispute_page_names_the_private_link_reporter_and_the_confirming_organiser(client, disputed):
    reporter = disputed["match"].entry_a.player
    body = _page(client, disputed["org"], "en", "dispute-detail", dispute_id=disputed["dispute"].pk)
    assert f"Reported by {reporter.display_name('en')}," in body
    assert "; confirmed by Olga Orlova" in body
    assert "<small>—</small>" not in body  # the old anonymous dash


def test_dispute_page_in_russian_uses_neutral_forms(client, disputed):
    reporter = disputed["match"].entry_a.player
    body = _page(client, disputed["org"], "ru", "dispute-detail", dispute_id=disputed["dispute"].pk)
    assert f"Сообщено: {reporter.display_name('ru')}," in body
    assert "; подтверждено: Orlova Olga (организатор)" in body
    assert "подтвердил " not in body


def test_match_page_never_reads_as_if_the_reporter_confirmed(client, disputed):
    reporter = disputed["match"].entry_a.player
    body = _page(client, disputed["org"], "en", "result-match", match_id=disputed["match"].pk)
    assert f"Reported by {reporter.display_name('en')}," in body and "; confirmed by Olga Orlova" in body
    name = reporter.display_name("en")
    assert body.count(f"by {name},") == body.count(f"Reported by {name},")  # no bare "Confirmed … by <reporter>"
