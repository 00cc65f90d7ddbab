"""The creation wizard's starting points: ONE table of presets from the book and club practice.

Each preset is a row: a key, its name and description in Russian and English,
the tournament's field values, its pairing options (as ``Tournament.pairing_options``
stores them) and, for events played in category groups, its sections. A preset
only prefills the wizard's form — every value stays editable, and the same
validation (``Tournament.clean``) decides what is acceptable. A newcomer adds a
preset by adding a row to :data:`PRESETS`; ``tests/test_setup_presets.py`` checks
that every row makes a valid tournament.

Book, Part 9: the Swiss system (10–13 rounds for 20+ players, numbers from the
open draw), the round robin "in 2 or more cycles" to reduce chance, the cup
(knockout), the Scheveningen team match, and the table of player categories whose
cube rule and match lengths a category championship follows section by section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class SectionPreset:
    """A section of a preset: a category group and the category whose table row applies."""

    name_en: str
    name_ru: str
    group: str  # tournaments.models.SectionGroup value
    min_category: int
    max_category: int
    rule_category: int | None = None

    def name(self, language: str = "ru") -> str:
        return self.name_en if language == "en" else self.name_ru


@dataclass(frozen=True)
class Preset:
    key: str
    name_en: str
    name_ru: str
    description_en: str
    description_ru: str
    values: Mapping[str, Any]  # Tournament field values (the model's defaults fill the rest)
    pairing_options: Mapping[str, Any] = field(default_factory=dict)
    sections: tuple[SectionPreset, ...] = ()

    def name(self, language: str = "ru") -> str:
        return self.name_en if language == "en" else self.name_ru

    def description(self, language: str = "ru") -> str:
        return self.description_en if language == "en" else self.description_ru

    def tournament_values(self) -> dict[str, Any]:
        """Field values for a new :class:`~tournaments.models.Tournament` (a fresh copy)."""
        return {**dict(self.values), "pairing_options": _copy(self.pairing_options)}

    def section_values(self, language: str = "ru") -> list[dict[str, Any]]:
        """The preset's sections as field values (the wizard's initial rows, the API's default
        when the request names no sections) — one list for both, so they cannot differ."""
        return [
            {"name": s.name(language), "group": s.group, "min_category": s.min_category,
             "max_category": s.max_category, "rule_category": s.rule_category, "order": i}
            for i, s in enumerate(self.sections, 1)
        ]  # fmt: skip


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def _values(**kwargs: Any) -> Mapping[str, Any]:
    return MappingProxyType(kwargs)


#: The presets, in the order the wizard offers them.
PRESETS: tuple[Preset, ...] = (
    Preset(
        "club_swiss",
        "Club Swiss",
        "Клубный турнир по швейцарской системе",
        "Backgammon with the cube, matches to 7 points with the Crawford rule, five rounds of the "
        "Swiss system after the open draw of numbers.",
        "Бэкгэммон с кубом, матчи до 7 очков с правилом Кроуфорда, пять туров по швейцарской "
        "системе после открытой номерной жеребьёвки.",
        _values(
            variant="backgammon", scoring="backgammon", system="swiss", match_format="points",
            match_length=7, cube=True, crawford=True, rounds_planned=5, seeding="draw",
        ),
    ),
    Preset(
        "category_championship",
        "Category championship",
        "Первенство по категориям",
        "One section per row of the book's table of categories, each with its own cube rule "
        "and match length: categories 1–3 play to 5 without the cube; with the cube, category "
        "4 to 7, 5 to 9, 6 to 11; Expert from 11 and Master/Grandmaster from 13, 2 points "
        "longer each round. A winner in each section; the absolute champion is the winner of "
        "the strongest section.",
        "По секции на каждую строку таблицы «Категории игроков», каждая со своим правилом куба "
        "и длиной матча: категории 1–3 играют до 5 очков без куба; с кубом категория 4 — до 7, "
        "5 — до 9, 6 — до 11; специалисты — с 11, мастера и гроссмейстеры — с 13 очков, с "
        "каждым кругом на 2 очка длиннее. Победитель в каждой секции; абсолютный чемпион — "
        "победитель сильнейшей секции.",
        _values(
            variant="backgammon", scoring="backgammon", system="swiss", match_format="points",
            match_length=5, cube=True, crawford=True, rounds_planned=5, seeding="draw",
        ),
        # Why one section per row and not per group: players of one section are paired with
        # each other, and one match has one length. The table gives categories 4, 5 and 6
        # (and 7 against 8–9) different lengths, so a match between two of them has none
        # the table gives; only players of one row can share a section. The organiser may
        # still merge rows into one section (then its rule category decides, and the
        # section says so).
        sections=(
            SectionPreset("Lower group (1–3)", "Низшая группа (1–3)", "lower", 1, 3, 1),
            SectionPreset("Amateur (4)", "Любитель (4)", "middle", 4, 4, 4),
            SectionPreset("Intermediate (5)", "Средняк (5)", "middle", 5, 5, 5),
            SectionPreset("Advanced (6)", "Продвинутый (6)", "middle", 6, 6, 6),
            SectionPreset("Expert (7)", "Специалист (7)", "higher", 7, 7, 7),
            SectionPreset("Master and Grandmaster (8–9)", "Мастер и гроссмейстер (8–9)", "higher", 8, 9, 8),
        ),
    ),
    Preset(
        "cup",
        "Cup with consolation and last chance",
        "Кубок с утешительной сеткой и «последним шансом»",
        "Knockout: the loser leaves the main bracket at once and goes on in the consolation "
        "bracket, then in the last-chance bracket; matches to 5, then 7 points, the final to "
        "9, a match for third place.",
        "Кубковая система: проигравший сразу выбывает из основной сетки и продолжает в "
        "утешительной, затем в сетке «последнего шанса»; матчи до 5, затем до 7 очков, финал "
        "до 9, матч за третье место.",
        _values(
            variant="backgammon", scoring="backgammon", system="knockout", match_format="points",
            match_length=5, cube=True, crawford=True, seeding="draw",
        ),
        pairing_options={
            "knockout": {
                "seed_by": "draw_number", "match_lengths": [5, 7], "final_length": 9,
                "side_length": 5, "third_place": True, "consolation": True, "last_chance": True,
            }
        },
    ),
    Preset(
        "round_robin",
        "Round robin in two cycles",
        "Круговой турнир в два круга",
        "Everyone meets everyone in a match of several games, twice to reduce chance (the "
        "book's most objective system); 5-point matches without the cube.",
        "Каждый встречается с каждым в матче из нескольких партий, дважды, чтобы свести "
        "элемент случайности к минимуму (по книге — самая объективная система); матчи до 5 "
        "очков без куба.",
        _values(
            variant="backgammon", scoring="backgammon", system="round_robin", match_format="points",
            match_length=5, cube=False, crawford=True, seeding="draw",
        ),
        pairing_options={"cycles": 2},
    ),
    Preset(
        "scheveningen",
        "Scheveningen team match",
        "Командный матч по шевенингенской системе",
        "Two teams: every player of one team plays every player of the other, so a personal "
        "championship is played alongside the team match; 5-point matches.",
        "Встречаются две команды: каждый участник одной команды играет с каждым участником "
        "другой, так что наряду с командным матчем проводится и личное первенство; матчи до 5 "
        "очков.",
        _values(
            variant="backgammon", scoring="backgammon", system="scheveningen",
            match_format="points", match_length=5, cube=False, crawford=True, seeding="draw",
        ),
    ),
    Preset(
        "long_nardy_games",
        "Long nardy, fixed number of games",
        "Длинные нарды, матчи из определённого числа партий",
        "Long nardy scored oyun 1, mars 2, koks 3, every match a fixed number of games (4) "
        "with colours alternating; five Swiss rounds.",
        "Длинные нарды со счётом оюн — 1, марс — 2, кокс — 3; каждый матч из определённого "
        "числа партий (4) со сменой цвета; пять туров по швейцарской системе.",
        _values(
            variant="long_nardy", scoring="long_nardy", system="swiss", match_format="games",
            match_length=None, fixed_games=4, cube=False, crawford=False, rounds_planned=5,
            seeding="draw",
        ),
    ),
)

BY_KEY: Mapping[str, Preset] = MappingProxyType({p.key: p for p in PRESETS})


def get_preset(key: str | None) -> Preset | None:
    """The preset with ``key`` (None for an unknown or missing key)."""
    return BY_KEY.get(key or "")
