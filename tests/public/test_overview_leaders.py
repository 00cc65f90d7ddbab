"""The overview's leaders and roster (issue 44): "Leaders 1–8." showed 3 of 8 tied players as
if they led alone, and the Players table kept an always-empty Sections column."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import SectionFactory, TournamentFactory, enter
from tournaments.public.views import LEADERS_MAX, leader_rows

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def leaders(response) -> list[str]:
    html = response.content.decode()
    block = html.split('<ul class="leaders">')[1].split("</ul>")[0]
    return re.findall(r"<li>.*?</li>", block, re.S)


def overview(client, t):
    return client.get(reverse("public-overview", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en")


def test_leaders_show_every_player_sharing_the_third_place(client):
    t = TournamentFactory(slug="tied-six", rounds_planned=3)
    enter(t, [{"last_name": f"Равный{i}", "short": True} for i in range(1, 7)])
    response = overview(client, t)
    assert response.status_code == 200
    rows = leaders(response)
    assert len(rows) == 6 and all("1–6." in r for r in rows)  # all six share 1–6: all six listed
    assert "more-tied" not in response.content.decode()


def test_leaders_beyond_the_cap_say_how_many_more_share_the_place(client):
    t = TournamentFactory(slug="tied-eleven", rounds_planned=3)
    enter(t, [{"last_name": f"Равный{i}", "short": True} for i in range(1, 12)])
    response = overview(client, t)
    assert len(leaders(response)) == LEADERS_MAX
    html = response.content.decode()
    assert f"and {11 - LEADERS_MAX} more players sharing place 1–11" in html
    russian = client.get(reverse("public-overview", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "и ещё 3 игрока делят место 1–11" in russian.content.decode()


def test_leader_rows_stop_at_three_when_the_third_place_is_not_shared():
    class Row:
        def __init__(self, place: str) -> None:
            self.place_label = place

    assert leader_rows([Row("1"), Row("2"), Row("3"), Row("4")]) == slice(0, 3)
    assert leader_rows([Row("1"), Row("2"), Row("3–5"), Row("3–5"), Row("3–5"), Row("6")]) == slice(0, 5)
    assert leader_rows([Row("1")]) == slice(0, 1)


def test_the_players_table_has_a_section_column_only_when_there_are_sections(client):
    t = TournamentFactory(slug="no-sections", rounds_planned=3)
    enter(t, [{"last_name": f"Игрок{i}", "short": True} for i in range(1, 5)])
    assert ">Section</th>" not in overview(client, t).content.decode()
    with_sections = TournamentFactory(slug="with-sections", rounds_planned=3)
    section = SectionFactory(tournament=with_sections, name="Мастера")
    entries = enter(with_sections, [{"last_name": f"Игрок{i}", "short": True} for i in range(1, 5)])
    for e in entries:
        e.section = section
        e.save(update_fields=["section"])
    html = overview(client, with_sections).content.decode()
    assert ">Section</th>" in html and "Мастера" in html
