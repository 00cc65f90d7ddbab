"""Who an incoming person is: names in any alphabet and order, evidence, and the decision rule."""

from __future__ import annotations

import iuliia
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.identity.matching import Fact, Name, Person, compare, compare_names, decide

CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщыэюя"
cyrillic_word = st.text(alphabet=CYRILLIC, min_size=2, max_size=10)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        (Person("Семенова", "Елена"), Person("Семёнова", "Елена")),
        (Person("Елена", "Семёнова"), Person("Семёнова", "Елена")),  # given and family name swapped
        (Person("Semenova", "Elena"), Person("Семёнова", "Елена")),
        (Person("СЕМЁНОВА", "елена"), Person("Семёнова", "Елена")),
        (Person("Guseinov", "Eldar"), Person("Гусейнов", "Эльдар")),
        (Person("Гусейнов Эльдар"), Person("Гусейнов", "Эльдар")),  # the whole name in one field
        (Person("Гусейнов", "Эльдар"), Person("Huseynov", "Eldar", "Guseinov", "Eldar")),  # the Latin form
    ],
)
def test_one_person_written_many_ways_has_the_same_name(typed, stored):
    assert compare_names(typed, stored) is Name.SAME


def test_a_missing_given_name_or_an_added_patronymic_is_half_a_name():
    assert compare_names(Person("Семёнова"), Person("Семенова", "Елена")) is Name.PARTIAL
    assert compare_names(Person("Семёнова", "Елена Петровна"), Person("Семенова", "Елена")) is Name.PARTIAL


def test_different_people_are_not_candidates():
    assert not compare(Person("Семёнова", "Елена"), Person("Семёнов", "Олег")).is_candidate


@given(last=cyrillic_word, first=cyrillic_word, swap=st.booleans())
def test_any_cyrillic_name_matches_its_transliteration_in_any_order(last, first, swap):
    latin = Person(iuliia.WIKIPEDIA.translate(last), iuliia.WIKIPEDIA.translate(first))
    if swap:
        latin = Person(latin.first_name, latin.last_name)
    assert compare_names(Person(last, first), latin) is Name.SAME


@given(last=cyrillic_word, first=cyrillic_word)
def test_yo_and_case_never_separate_a_name(last, first):
    plain = Person(last.replace("ё", "е").upper(), first.replace("ё", "е"))
    assert compare_names(Person(last, first), plain) is Name.SAME


def test_the_same_email_under_the_same_name_is_the_person():
    verdict = decide(
        Person("Семенова", "Елена", email="LENA@example.org"),
        [(1, Person("Семёнова", "Елена", email="lena@example.org")), (2, Person("Семёнова", "Елена"))],
    )
    assert verdict.same == 1
    assert [key for key, _ in verdict.candidates] == [1, 2]  # the namesake is still listed


def test_a_name_match_alone_is_a_candidate_for_a_person_to_confirm():
    verdict = decide(Person("Guseinov", "Eldar"), [(7, Person("Гусейнов", "Эльдар", clubs=frozenset({1})))])
    assert verdict.same is None and verdict.needs_choice
    assert verdict.candidates[0][0] == 7


def test_a_namesake_of_the_same_club_is_the_person_unless_the_birth_year_differs():
    stored = Person("Гусейнов", "Эльдар", birth_year=1990, clubs=frozenset({1}))
    same_club = Person("Гусейнов", "Эльдар", clubs=frozenset({1}))
    assert decide(same_club, [(7, stored)]).same == 7
    other_year = Person("Гусейнов", "Эльдар", birth_year=2001, clubs=frozenset({1}))
    assert decide(other_year, [(7, stored)]).same is None


def test_an_email_shared_under_another_name_is_shown_not_taken():
    """A parent registering two children with one address: the second child is not the first."""
    verdict = decide(Person("Петров", "Миша", email="p@example.org"), [(3, Person("Петров", "Саша", email="p@example.org"))])
    assert verdict.same is None and verdict.candidates[0][1].email is Fact.SAME


def test_two_certain_namesakes_leave_the_choice_to_a_person():
    stored = [(1, Person("Иванов", "Иван", clubs=frozenset({5}))), (2, Person("Иванов", "Иван", clubs=frozenset({5})))]
    assert decide(Person("Иванов", "Иван", clubs=frozenset({5})), stored).same is None


@given(
    name=st.tuples(cyrillic_word, cyrillic_word),
    year=st.one_of(st.none(), st.integers(1940, 2015)),
    other_year=st.one_of(st.none(), st.integers(1940, 2015)),
    email=st.sampled_from(["", "a@x.org", "b@x.org"]),
    other_email=st.sampled_from(["", "a@x.org", "b@x.org"]),
)
def test_contradicting_evidence_is_never_certain(name, year, other_year, email, other_email):
    incoming = Person(*name, email=email, birth_year=year, clubs=frozenset({1}))
    stored = Person(*name, email=other_email, birth_year=other_year, clubs=frozenset({1}))
    comparison = compare(incoming, stored)
    if year and other_year and year != other_year:
        assert not comparison.certain
    if email and other_email and email != other_email:
        assert not comparison.certain
    assert comparison.is_candidate  # the same name is always shown


@given(st.lists(st.tuples(cyrillic_word, cyrillic_word), max_size=6))
def test_the_verdict_is_one_of_the_candidates(names):
    stored = [(i, Person(*n, clubs=frozenset({i % 2}))) for i, n in enumerate(names)]
    incoming = Person(*(names[0] if names else ("Иванов", "Иван")), clubs=frozenset({0}))
    verdict = decide(incoming, stored)
    keys = [key for key, _ in verdict.candidates]
    assert verdict.same is None or verdict.same in keys
    scores = [c.score for _, c in verdict.candidates]
    assert scores == sorted(scores, reverse=True)
