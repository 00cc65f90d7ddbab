"""The result form speaks the variant's language and offers only what the match can have
(issue 44): a backgammon match to 5 offered "oyun/mars/koks" and a "draw", and its score inputs
stepped by 0.1."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.utils import translation

from scoring import workflow
from scoring.entry.forms import GameForm, ResultEntry
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


def first_match(**options):
    t = TournamentFactory(rounds_planned=3, **options)
    director = UserFactory()
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Словарёв{i}", "short": True} for i in range(1, 5)])
    [rnd] = pm.generate_next(t, user=director)
    return rnd.matches.order_by("table").first()


def labels(field) -> list[str]:
    return [str(label) for _value, label in field.choices]


def test_a_backgammon_match_to_n_offers_backgammon_words_and_no_draw():
    match = first_match(variant="backgammon", scoring="backgammon", match_format="points", match_length=5)
    form = GameForm(match=match)
    with translation.override("en"):
        assert labels(form.fields["kind"])[1:] == ["single game", "gammon", "backgammon"]
    assert "draw" not in [value for value, _label in form.fields["winner"].choices]
    entry = ResultEntry(match)
    assert entry.form.fields["score_a"].widget.attrs["step"] == "1"
    assert 'step="1"' in str(entry.form["score_b"])


def test_a_long_nardy_match_of_fixed_games_keeps_the_books_words_and_its_draw():
    match = first_match(variant="long_nardy", scoring="long_nardy", match_format="games", fixed_games=4,
                        match_length=None, draw_value=Decimal("0.5"))  # fmt: skip
    form = GameForm(match=match)
    with translation.override("ru"):
        kinds = " ".join(labels(form.fields["kind"]))
    assert "оюн" in kinds and "марс" in kinds
    assert "draw" in [value for value, _label in form.fields["winner"].choices]
    assert ResultEntry(match).form.fields["score_a"].widget.attrs["step"] == "0.5"


def test_the_desk_match_page_gives_each_forms_reason_an_id_of_its_own(client):
    """Issue 44: the lateness and the result-without-play forms both rendered id="id_reason"."""
    match = first_match(match_format="points", match_length=5, late_penalty_minutes=10)
    director = match.round.tournament.officials.first().user
    pm.publish_round(match.round, user=director)
    client.force_login(director)
    html = client.get(f"/t/{match.round.tournament.slug}/desk/match/{match.pk}/").content.decode()
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert 'for="kind_reason"' in html and 'id="kind_reason"' in html


def test_a_superseded_report_is_folded_away_under_the_result_that_stands(client):
    """Issue 44: every superseded report stayed listed on the match page as if it still counted."""
    match = first_match(match_format="points", match_length=5)
    director = match.round.tournament.officials.first().user
    pm.publish_round(match.round, user=director)
    workflow.submit_result(match.pk, director, version=match.version, final=(5, 2), confirm=True)
    match.refresh_from_db()
    workflow.submit_result(match.pk, director, version=match.version, final=(2, 5), confirm=True,
                           reason="The score sheet was read the wrong way round")  # fmt: skip
    client.force_login(director)
    html = client.get(f"/t/{match.round.tournament.slug}/referee/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    standing, earlier = html.split('<details class="earlier-reports">')
    assert "2:5" in standing.split('<ul class="reports">')[1] and "5:2" not in standing.split('<ul class="reports">')[1]
    assert "1 earlier report, replaced or rejected" in earlier and "5:2" in earlier.split("</details>")[0]
