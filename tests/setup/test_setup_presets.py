"""Every preset of the creation wizard makes a valid tournament (the model's own clean)."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.rules.match.categories import get_category
from tournaments.models import Section, Tournament
from tournaments.pairing.options import parse_options
from tournaments.rounds.pairing_manager import SYSTEMS
from tournaments.setup.presets import BY_KEY, PRESETS, get_preset

pytestmark = pytest.mark.django_db

EXPECTED_KEYS = {
    "club_swiss", "category_championship", "cup", "round_robin", "scheveningen",
    "long_nardy_games",
}  # fmt: skip


def test_the_table_has_the_issues_presets_with_unique_keys_and_both_languages():
    assert set(BY_KEY) == EXPECTED_KEYS
    assert len(PRESETS) == len(BY_KEY)
    for p in PRESETS:
        assert p.name("ru") and p.name("en") and p.name("ru") != p.name("en")
        assert p.description("ru") and p.description("en")
    assert get_preset("nope") is None and get_preset(None) is None


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_each_preset_makes_a_valid_tournament_and_sections(preset):
    t = Tournament(name=preset.name_en, slug=preset.key.replace("_", "-"),
                   starts_on=dt.date(2026, 5, 1), **preset.tournament_values())  # fmt: skip
    t.full_clean()
    t.save()
    parse_options(t.system, t.pairing_options, SYSTEMS[t.system].defaults(t))
    for i, sp in enumerate(preset.sections, 1):
        s = Section(tournament=t, name=sp.name("ru"), group=sp.group, min_category=sp.min_category,
                    max_category=sp.max_category, rule_category=sp.rule_category, order=i)  # fmt: skip
        s.full_clean()
        s.save()


def test_category_championship_follows_the_category_table_row_by_row():
    """Book Part 9, «Категории игроков»: each row its own cube rule and length — 1–3 to 5
    without the cube; 4 to 7, 5 to 9, 6 to 11; Expert 11, 13, 15…; Master/Grandmaster 13, 15…"""
    preset = BY_KEY["category_championship"]
    t = Tournament.objects.create(name="Ч", slug="ch", starts_on=dt.date(2026, 5, 1),
                                  **preset.tournament_values())  # fmt: skip
    rules = {}
    covered = []
    for sp in preset.sections:
        s = Section.objects.create(tournament=t, name=sp.name_en, group=sp.group,
                                   min_category=sp.min_category, max_category=sp.max_category,
                                   rule_category=sp.rule_category)  # fmt: skip
        covered += list(range(sp.min_category, sp.max_category + 1))
        rules[(sp.min_category, sp.max_category)] = [(r.length, r.cube) for r in (s.rule(n) for n in (1, 2, 3))]
        assert not any(s.rule(n).overridden for n in (1, 2, 3))
        # Every category of the section has the same row of the table (one length per match).
        lengths = {tuple(get_category(c).length(n) for n in (1, 2, 3)) for c in range(sp.min_category, sp.max_category + 1)}
        assert len(lengths) == 1, sp
        assert get_category(sp.min_category).group.key == sp.group
    assert covered == list(range(1, 10))
    assert rules == {
        (1, 3): [(5, False)] * 3,
        (4, 4): [(7, True)] * 3,
        (5, 5): [(9, True)] * 3,
        (6, 6): [(11, True)] * 3,
        (7, 7): [(11, True), (13, True), (15, True)],
        (8, 9): [(13, True), (15, True), (17, True)],
    }


def test_the_system_presets_carry_their_options():
    cup = BY_KEY["cup"].tournament_values()
    options = parse_options("knockout", cup["pairing_options"])
    assert options.consolation and options.last_chance
    assert parse_options("round_robin", BY_KEY["round_robin"].pairing_options).cycles == 2
    nardy = BY_KEY["long_nardy_games"].values
    assert (nardy["variant"], nardy["scoring"], nardy["match_format"]) == ("long_nardy", "long_nardy", "games")
    assert nardy["fixed_games"] >= 1
    assert BY_KEY["scheveningen"].values["system"] == "scheveningen"
    # the row is never shared: changing a copy leaves the table intact
    cup["pairing_options"]["knockout"]["consolation"] = False
    assert BY_KEY["cup"].pairing_options["knockout"]["consolation"] is True
