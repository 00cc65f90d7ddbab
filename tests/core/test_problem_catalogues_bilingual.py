"""Every problem code has its message in Russian and in English (issue 28: every message in the requested language).

A code is said once, in its namespace's catalogue (``*problems.py`` and the few
modules that define a ``Catalogue`` of their own); the API, the pages and the
exports render it in the reader's language. So each row must have both texts,
really in its language (not the other's words, not a copy), and take the same
details: a placeholder in one text and not the other would be lost, or fail, in
one of the languages.
"""

from __future__ import annotations

import importlib
import re
import string
from pathlib import Path

import pytest

from scoring.rules import errors

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "tournaments", "clubs", "zarik")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LETTER = re.compile(r"[^\W\d_]")
#: The forms a catalogue's ``fields`` derive from one detail for a language's grammar: ``mover_name``
#: (English: a name, or "White"), ``mover_gen``/``mover_dat``/``mover_Name`` (Russian cases, capitalised),
#: ``category_ru`` (the Russian category word). Both texts take the detail; each in its own form.
FORM = re.compile(r"_(name|Name|gen|dat|acc|ins|pre|ru|en)$")
#: English texts that quote Russian words on purpose, with why.
RUSSIAN_QUOTED = {
    "entry.import_no_last_name_column": "names the column headers a file may have, Russian ones included",
}


def catalogue_modules() -> list[str]:
    """Every module of the product that builds a catalogue, found by reading the source (not a list kept by hand)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            if re.search(r"^\s*[A-Z_]+ = Catalogue\(", path.read_text(encoding="utf-8"), re.M):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


@pytest.fixture(scope="module")
def rows() -> dict[str, tuple[str, str]]:
    modules = catalogue_modules()
    assert len(modules) >= 15, modules  # the catalogues are found: a search that finds none fails here
    for module in modules:
        importlib.import_module(module)
    return {code: (entry.en, entry.ru) for code, entry in errors._REGISTRY.items()}


def placeholders(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


def details(template: str) -> set[str]:
    """The details a template takes, whatever grammatical form of each it shows."""
    return {FORM.sub("", name) for name in placeholders(template)}


def words(template: str) -> str:
    """The template's own words: its text without the placeholders (a template may be nothing but details)."""
    return "".join(text for text, _name, _spec, _conv in string.Formatter().parse(template))


def test_the_catalogues_hold_the_codes_the_api_answers(rows):
    namespaces = {code.split(".")[0] for code in rows}
    assert {"api", "workflow", "entry", "pairing", "match", "record", "registration", "setup"} <= namespaces


def test_every_code_has_an_english_and_a_russian_text(rows):
    missing = [code for code, (en, ru) in rows.items() if not en.strip() or not ru.strip()]
    assert not missing, missing


def test_the_english_text_is_english_and_the_russian_text_russian(rows):
    russian_in_english = [
        f"{code}: {en}" for code, (en, _ru) in rows.items() if CYRILLIC.search(en) and code not in RUSSIAN_QUOTED
    ]
    worded = {code: (en, ru) for code, (en, ru) in rows.items() if LETTER.search(words(en) + words(ru))}
    not_russian = [f"{code}: {ru}" for code, (_en, ru) in worded.items() if not CYRILLIC.search(words(ru))]
    copies = [code for code, (en, ru) in worded.items() if en.strip() == ru.strip()]
    assert len(worded) > 300
    assert not russian_in_english, russian_in_english
    assert not not_russian, not_russian
    assert not copies, copies


def test_both_texts_of_a_code_take_the_same_details(rows):
    different = {
        code: (sorted(placeholders(en)), sorted(placeholders(ru)))
        for code, (en, ru) in rows.items()
        if details(en) != details(ru)
    }
    assert not different, different
