"""Structured, bilingual problems reported by the pure cores.

Every rule check in the cores returns or raises a :class:`Problem` instead of a
bare string, so that the Django shell (forms, API, admin, commands) can show the
same finding in Russian or English, next to what the user typed, and so tests
can assert on a stable ``code`` rather than on wording.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: a stable code, the message in both languages, and where it is.

    ``move``/``side`` locate a problem in a game record, ``game`` in a match
    ledger; ``text`` is what the user typed there, echoed back so nothing is lost.
    """

    code: str
    en: str
    ru: str
    move: int | None = None
    side: str | None = None
    game: int | None = None
    text: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def message(self, language: str = "ru") -> str:
        """The message in ``language`` ("ru" or "en"; anything else falls back to Russian)."""
        return self.en if language.startswith("en") else self.ru

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message(language),
            "move": self.move,
            "side": self.side,
            "game": self.game,
            "text": self.text,
        }


class RuleViolation(ValueError):
    """Raised where a caller asked for something the rules forbid (carries the problems)."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(p.en for p in self.problems))
