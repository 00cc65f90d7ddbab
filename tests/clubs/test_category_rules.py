"""Sections and rounds take match length and cube rule from the book's category table."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Category
from tests.factories import SectionFactory, TournamentFactory
from tournaments.models import Round, Section

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(
        name="Open", slug="open", starts_on=dt.date(2026, 5, 1), cube=True, bare=True
    )


def test_expert_section_grows_by_round_from_the_table(tournament):
    section = SectionFactory(
        tournament=tournament, name="Высшая", min_category=Category.EXPERT,
        max_category=Category.EXPERT,
    )
    assert [section.rule(n).length for n in (1, 2, 3)] == [11, 13, 15]
    assert section.rule(1).cube is True and not section.rule(1).overridden


def test_lower_section_plays_without_cube(tournament):
    section = SectionFactory(
        tournament=tournament, name="Низшая", min_category=1, max_category=3
    )
    rule = section.rule(4)
    assert (rule.length, rule.cube) == (5, False)


def test_section_override_needs_a_reason(tournament):
    section = Section(tournament=tournament, name="Средняя", min_category=4, max_category=4, match_length=9)
    with pytest.raises(ValidationError) as info:
        section.full_clean()
    assert "override_reason" in info.value.message_dict
    section.override_reason = "Мало времени: зал до 22:00"
    section.full_clean()
    section.save()
    rule = section.rule(1)
    assert rule.length == 9 and rule.override.table_length == 7
    assert rule.override.reason.startswith("Мало времени")


def test_round_length_override_needs_a_reason(tournament):
    section = SectionFactory(tournament=tournament, name="Мастера", min_category=8, max_category=9)
    rnd = Round(tournament=tournament, section=section, number=2, match_length=11)
    with pytest.raises(ValidationError) as info:
        rnd.full_clean()
    assert "length_override_reason" in info.value.message_dict
    rnd.length_override_reason = "Финал перенесён"
    rnd.full_clean()
    # The table's own length is no override at all.
    Round(tournament=tournament, section=section, number=3, match_length=17).full_clean()


def test_jacoby_is_refused_for_a_tournament_of_matches(tournament):
    tournament.jacoby = True
    with pytest.raises(ValidationError):
        tournament.full_clean()
