"""Player categories (Part 9, table "Категории игроков") and each round's match rules.

A section's match length and cube rule for a round come from this table unless
the organiser decides otherwise; an override is allowed but must carry a
reason, and the result keeps both what the table said and what was set, so a
crosstable can later show why a round was played differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scoring.rules.errors import RuleViolation
from scoring.rules.problems.match import MATCH


class Group(Enum):
    """The table's three bands of categories."""

    LOWER = ("lower", "Lower (beginners)", "Низшая (начальная)")
    MIDDLE = ("middle", "Middle", "Средняя")
    HIGHER = ("higher", "Higher", "Высшая")

    def __init__(self, key: str, en: str, ru: str) -> None:
        self.key = key
        self.en = en
        self.ru = ru


@dataclass(frozen=True, slots=True)
class Category:
    """One row of the table; ``length_step`` > 0 means the length grows by round."""

    number: int
    key: str
    en: str
    ru: str
    group: Group
    cube: bool
    first_length: int
    length_step: int = 0

    def length(self, round_number: int) -> int:
        """Match length in ``round_number`` (1-based) as the table prescribes."""
        return self.first_length + self.length_step * (round_number - 1)

    @property
    def grows(self) -> bool:
        return self.length_step > 0


CATEGORIES: tuple[Category, ...] = (
    Category(1, "beginner", "Beginner", "Начинающий", Group.LOWER, False, 5),
    Category(2, "novice", "Novice", "Новичок", Group.LOWER, False, 5),
    Category(3, "pupil", "Pupil", "Ученик", Group.LOWER, False, 5),
    Category(4, "amateur", "Amateur", "Любитель", Group.MIDDLE, True, 7),
    Category(5, "intermediate", "Intermediate", "Средняк", Group.MIDDLE, True, 9),
    Category(6, "advanced", "Advanced", "Продвинутый (Опытный)", Group.MIDDLE, True, 11),
    # Footnote *: "Начальный круг (раунд) с 11-ти очков, затем – с 13-ти, 15-ти и т. д."
    Category(7, "expert", "Expert", "Специалист", Group.HIGHER, True, 11, 2),
    # Footnote **: "Начальный круг (раунд) с 13-ти очков, затем – с 15-ти и т. д."
    Category(8, "master", "Master", "Мастер", Group.HIGHER, True, 13, 2),
    Category(9, "grandmaster", "Grandmaster", "Гроссмейстер", Group.HIGHER, True, 13, 2),
)

_BY_NUMBER = {c.number: c for c in CATEGORIES}
_BY_KEY = {c.key: c for c in CATEGORIES}

def get_category(ref: int | str | Category) -> Category:
    """Look a category up by number (1–9), key ("expert"), or English/Russian name."""
    if isinstance(ref, Category):
        return ref
    found: Category | None = None
    if isinstance(ref, int) and not isinstance(ref, bool):
        found = _BY_NUMBER.get(ref)
    elif isinstance(ref, str):
        text = ref.strip().lower()
        found = _BY_KEY.get(text)
        if found is None:
            if text.isdigit():
                found = _BY_NUMBER.get(int(text))
            else:
                found = next((c for c in CATEGORIES if text in (c.en.lower(), c.ru.lower())), None)
    if found is None:
        raise RuleViolation(
            MATCH.problem("unknown_category", value=ref, keys=", ".join(_BY_KEY))
        )
    return found


def categories_in(group: Group) -> tuple[Category, ...]:
    return tuple(c for c in CATEGORIES if c.group is group)


@dataclass(frozen=True, slots=True)
class Override:
    """What the table said, what the organiser set instead, and why."""

    table_length: int
    table_cube: bool
    length: int
    cube: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RoundRule:
    """The match length and cube rule in force for one category in one round."""

    category: Category
    round: int
    length: int
    cube: bool
    override: Override | None = None

    @property
    def overridden(self) -> bool:
        return self.override is not None


def round_rule(
    category: int | str | Category,
    round_number: int = 1,
    *,
    length: int | None = None,
    cube: bool | None = None,
    reason: str | None = None,
) -> RoundRule:
    """The table's rule for a category and round, or the organiser's recorded override.

    Passing ``length``/``cube`` that equal the table's values is not an override;
    any real difference needs a non-empty ``reason``.
    """
    cat = get_category(category)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise RuleViolation(MATCH.problem("bad_round", value=round_number))
    if length is not None and (
        isinstance(length, bool) or not isinstance(length, int) or length < 1
    ):
        raise RuleViolation(MATCH.problem("bad_override_length", value=length))
    table_length = cat.length(round_number)
    chosen_length = table_length if length is None else length
    chosen_cube = cat.cube if cube is None else bool(cube)
    if (chosen_length, chosen_cube) == (table_length, cat.cube):
        return RoundRule(cat, round_number, table_length, cat.cube)
    if not (reason and reason.strip()):
        raise RuleViolation(
            MATCH.problem(
                "override_needs_reason",
                category=cat.en,
                category_ru=cat.ru,
                round=round_number,
                table={"length": table_length, "cube": cat.cube},
                chosen={"length": chosen_length, "cube": chosen_cube},
            )
        )
    override = Override(table_length, cat.cube, chosen_length, chosen_cube, reason.strip())
    return RoundRule(cat, round_number, chosen_length, chosen_cube, override)


def table_lengths(category: int | str | Category, rounds: int) -> list[int]:
    """The table's lengths for rounds 1…``rounds`` (for showing a section's programme)."""
    cat = get_category(category)
    return [cat.length(r) for r in range(1, rounds + 1)]
