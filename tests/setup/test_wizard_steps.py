"""The wizard's three steps (issue 44): what every event needs first, the options in closed
groups, a summary by group with "Change" back to a group, and nothing saved before "Create"."""

from __future__ import annotations

import pytest

from tests.setup.test_setup_pages import NEW, doc_of, errors_of, form_values, post
from tests.setup.test_setup_pages import club as club  # noqa: F401 (the fixture)
from tests.setup.test_setup_pages import organiser as organiser  # noqa: F401 (the fixture)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def logged_in(client, organiser):  # noqa: F811
    client.force_login(organiser)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_first_step_asks_what_every_event_needs_and_keeps_it_when_refused(client, organiser, language):  # noqa: F811
    client.cookies["django_language"] = language
    first = client.get(NEW, {"club": "zarik"})
    doc = doc_of(first)
    for name in ("name", "starts_on", "ends_on", "variant", "system", "match_length"):
        assert doc.xpath(f"//form[@id='wizard-essentials']//*[@name='{name}']"), name
    assert doc.xpath("//input[@name='preset' and @type='radio' and @checked]")
    refused = client.get(NEW, {"club": "zarik", "preset": "cup", "name": "", "starts_on": "2027-05-01", "match_length": "9"})
    assert refused.status_code == 200 and errors_of(refused)  # the name is required: said beside it
    doc = doc_of(refused)
    assert doc.xpath("//input[@name='match_length']/@value") == ["9"]  # nothing typed is lost
    assert doc.xpath("//input[@name='preset' and @value='cup']/@checked")
    assert not Tournament.objects.exists()


def test_the_essentials_prefill_the_options_which_wait_in_closed_groups(client, organiser):  # noqa: F811
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss", "name": "Весенний", "starts_on": "2027-04-01",
                             "variant": "long_nardy", "system": "round_robin", "match_length": "5"})  # fmt: skip
    doc = doc_of(step2)
    assert doc.xpath("//input[@name='name']/@value") == ["Весенний"]
    assert doc.xpath("//select[@name='system']/option[@selected]/@value") == ["round_robin"]
    assert doc.xpath("//select[@name='variant']/option[@selected]/@value") == ["long_nardy"]
    assert doc.xpath("//select[@name='scoring']/option[@selected]/@value") == ["long_nardy"]  # the game's own table
    groups = doc.xpath("//details[contains(@class,'group')]")
    keys = [g.get("id") for g in groups]
    for key in ("event", "match", "pairing", "tiebreaks", "time", "registration", "prizes"):
        assert f"group-{key}" in keys, key
    assert not [g.get("id") for g in groups if g.get("open") is not None]  # all closed: step 1 asked


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_summary_lists_what_will_be_created_and_change_goes_back_to_that_group(client, organiser, language):  # noqa: F811
    client.cookies["django_language"] = language
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss", "name": "Итоговый", "starts_on": "2027-04-01"})
    step3 = post(client, NEW, form_values(step2, step="options"))
    doc = doc_of(step3)
    summary = doc.xpath("//section[@id='wizard-summary']")[0]
    shown = {dt.text_content(): dd.text_content() for dt, dd in zip(summary.xpath(".//dt"), summary.xpath(".//dd"), strict=True)}
    assert "Итоговый" in shown.values() and "7" in shown.values()
    assert "0.5" not in shown.values()  # a match to N points: no drawn game's value
    assert not Tournament.objects.exists()  # nothing saved before "Create"
    back = post(client, NEW, form_values(step3, edit="time"))
    doc = doc_of(back)
    assert doc.xpath("//details[@id='group-time']/@open") == ["open"] or doc.xpath("//details[@id='group-time'][@open]")
    assert doc.xpath("//input[@name='name']/@value") == ["Итоговый"]
    step3 = post(client, NEW, form_values(back, step="options"))
    post(client, NEW, form_values(step3, step="create"))
    assert Tournament.objects.get(name="Итоговый").match_length == 7
