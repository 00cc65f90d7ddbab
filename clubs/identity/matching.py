"""Is this incoming person a stored player? Pure comparison and the decision rule (no Django).

A name is compared as the *set* of its folded words (:func:`clubs.names.words`:
lower case, ё → е, Cyrillic transliterated, the Latin schemes folded together), so
«Семёнова Елена», «Семенова Елена», «Елена Семёнова» and «Semenova Elena» are one
name, and «Гусейнов Эльдар» is «Guseinov Eldar». Each written form of a person's
name (Cyrillic, Latin) is one set; two people share a name when any of their forms
are equal, and half a name (one set inside the other: a missing given name, an added
patronymic) is a *partial* name.

The decision rule (:func:`decide`), the one place it lives:

* **certain** — the same email (both given, equal ignoring case) and a name that does
  not contradict it (same or partial); or the same name and a shared current club —
  in both cases only when no evidence contradicts it (a different birth year, a
  different email);
* exactly one certain candidate is the person; the caller uses them (a preview or a
  page says so before anything is written);
* every other candidate (a name match, a partial name, an email shared under another
  name) is shown side by side, and a person picks one or says "a new player";
* two certain candidates are not certain: a person picks.

The names are lossy on purpose (see :mod:`clubs.names`): they find candidates; the
evidence and a person decide.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from clubs.names import fold_word, to_latin


class Name(StrEnum):
    SAME = "same"
    PARTIAL = "partial"
    DIFFERENT = "different"


class Fact(StrEnum):
    """How one piece of evidence compares: the same, different, or not known on one side."""

    SAME = "same"
    DIFFERENT = "different"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Person:
    """What is known of a person: names as typed (any alphabet, any order) and the evidence."""

    last_name: str
    first_name: str = ""
    last_name_latin: str = ""
    first_name_latin: str = ""
    email: str = ""
    birth_year: int | None = None
    clubs: frozenset[Hashable] = frozenset()
    rating: float | None = None


_SEPARATORS = re.compile(r"[^a-z0-9]+")


def words(text: str) -> list[str]:
    """The folded words of a name (:func:`clubs.names.fold_word`), digits kept: «Иванов 2» is not «Иванов»."""
    return [w for w in (fold_word(w) for w in _SEPARATORS.split(to_latin(text))) if w]


def name_forms(person: Person) -> frozenset[frozenset[str]]:
    """Each written form of the whole name as a set of folded words (order-free)."""
    forms = set()
    for last, first in (
        (person.last_name, person.first_name),
        (person.last_name_latin, person.first_name_latin),
    ):
        found = frozenset(words(last or "") + words(first or ""))
        if found:
            forms.add(found)
    return frozenset(forms)


def compare_names(a: Person, b: Person) -> Name:
    forms_a, forms_b = name_forms(a), name_forms(b)
    if forms_a & forms_b:
        return Name.SAME
    if any(x < y or y < x for x in forms_a for y in forms_b):
        return Name.PARTIAL
    return Name.DIFFERENT


def _fact(x, y) -> Fact:
    if x in (None, "") or y in (None, ""):
        return Fact.UNKNOWN
    return Fact.SAME if x == y else Fact.DIFFERENT


def _email(text: str) -> str:
    return (text or "").strip().casefold()


@dataclass(frozen=True)
class Comparison:
    """The evidence for "the incoming person is this stored player", fact by fact."""

    name: Name
    email: Fact
    birth_year: Fact
    club: Fact  # SAME: a current club in common; DIFFERENT: both in clubs, none shared
    rating_gap: float | None

    @property
    def contradicted(self) -> bool:
        return Fact.DIFFERENT in (self.email, self.birth_year)

    @property
    def is_candidate(self) -> bool:
        """Worth showing to a person: a name in common (whole or half), or the same email."""
        return self.name is not Name.DIFFERENT or self.email is Fact.SAME

    @property
    def certain(self) -> bool:
        """The module's decision rule for one candidate (see the module docstring)."""
        if self.birth_year is Fact.DIFFERENT:
            return False
        if self.email is Fact.SAME:
            return self.name is not Name.DIFFERENT
        return self.name is Name.SAME and self.club is Fact.SAME and not self.contradicted

    @property
    def score(self) -> int:
        """Ordering of candidates, most likely first (not a probability)."""
        points = {Name.SAME: 8, Name.PARTIAL: 3, Name.DIFFERENT: 0}[self.name]
        for fact, weight in ((self.email, 6), (self.birth_year, 4), (self.club, 2)):
            points += weight if fact is Fact.SAME else -weight if fact is Fact.DIFFERENT else 0
        return points


def compare(incoming: Person, stored: Person) -> Comparison:
    clubs = Fact.UNKNOWN
    if incoming.clubs and stored.clubs:
        clubs = Fact.SAME if incoming.clubs & stored.clubs else Fact.DIFFERENT
    gap = None
    if incoming.rating is not None and stored.rating is not None:
        gap = abs(incoming.rating - stored.rating)
    return Comparison(
        name=compare_names(incoming, stored),
        email=_fact(_email(incoming.email), _email(stored.email)),
        birth_year=_fact(incoming.birth_year, stored.birth_year),
        club=clubs,
        rating_gap=gap,
    )


@dataclass(frozen=True)
class Verdict:
    """Who the incoming person is: ``same`` when certain, else the candidates to choose from.

    ``candidates`` (key, comparison) are ordered most likely first and include ``same``.
    """

    same: Hashable | None
    candidates: tuple[tuple[Hashable, Comparison], ...] = field(default=())

    @property
    def needs_choice(self) -> bool:
        return self.same is None and bool(self.candidates)


def decide(incoming: Person, stored: Iterable[tuple[Hashable, Person]]) -> Verdict:
    """Compare ``incoming`` with every stored person (key, person) and apply the rule."""
    found = [(key, compare(incoming, person)) for key, person in stored]
    found = [(key, c) for key, c in found if c.is_candidate]
    found.sort(key=lambda item: -item[1].score)
    certain = [key for key, c in found if c.certain]
    return Verdict(certain[0] if len(certain) == 1 else None, tuple(found))
