"""A stored explanation rendered for one reader: their language, players' names.

Explanations store codes and details (``Problem.to_data()``); rounds drawn
before that stored ready-made ``en``/``ru`` text, which is still shown as is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.errors import Problem
from tournaments.models import Tournament

from .reading import label


def names_of(tournament: Tournament) -> dict[str, str]:
    """Draw number (as text) → "№5 Иванов И.", the names every stored decision is shown with."""
    return {
        str(e.draw_number): label(e)
        for e in tournament.entries.select_related("player").exclude(draw_number=None)
    }


def message(stored: Mapping[str, Any], language: str, names: Mapping[str, str]) -> str:
    """One stored decision or problem in ``language``."""
    if "en" in stored or "ru" in stored:  # stored as text by an older version
        return str(stored.get(language) or stored.get("en") or stored.get("message", ""))
    return Problem.from_data(stored).message(language, names)


def messages(stored: list[Mapping[str, Any]], language: str, names: Mapping[str, str]) -> list[str]:
    return [message(d, language, names) for d in stored or ()]
