"""The withdrawal mark does not make a woman a man (issue 49): «Ли Анна (выбыл)» is now neutral.

The records hold no gender, so the Russian mark is the neutral «выбыл(а)» on the standings page
and in the Excel labels, as the FIDE-rule notes already wrote it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import swiss_event
from tournaments.exports.labels import label
from tournaments.models import EntryStatus

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_a_withdrawn_players_mark_is_neutral_in_russian(client):
    t = swiss_event(6, slug="mark", rounds_done=2, open_round=False)
    entry = t.entries.order_by("draw_number").last()
    entry.player.last_name, entry.player.first_name = "Ли", "Анна"
    entry.player.save()
    entry.status = EntryStatus.WITHDRAWN
    entry.save()
    page = client.get(reverse("public-standings", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    body = page.content.decode()
    assert "(выбыл(а))" in body and "(выбыл)" not in body
    assert "(withdrawn)" in client.get(reverse("public-standings", kwargs={"slug": t.slug}),
                                       HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    assert label("withdrawn", "ru") == "выбыл(а)"  # the Excel files say the same


def test_the_sanction_marks_are_neutral_in_russian_too():
    """«дисквалифицирован» / «удалён» beside a woman's name were masculine as «выбыл» was."""
    from django.utils import translation

    with translation.override("ru"):
        assert translation.gettext("disqualified") == "дисквалифицирован(а)"
        assert translation.gettext("removed") == "удалён(а)"
    assert label("disqualified", "ru") == "дисквалифицирован(а)"
    assert label("removed", "ru") == "удалён(а) с соревнований"
