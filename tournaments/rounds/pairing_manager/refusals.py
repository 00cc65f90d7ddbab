"""What the round manager says when it will not do something: coded ``pairing.*`` problems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.rules.errors import Problem
from tournaments.pairing.problems import PAIRING


class PairingRefused(Exception):
    """The manager will not do what was asked; ``problems`` say why (rendered in the reader's language)."""

    def __init__(self, problems: Problem | Sequence[Problem]):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(p.en for p in self.problems))

    def messages(self, language: str = "ru") -> list[str]:
        return [p.message(language) for p in self.problems]


def problem(name: str, **details: Any) -> Problem:
    """A problem of the manager's catalogue (``pairing.<name>``)."""
    return PAIRING.problem(name, **details)


def refuse(name: str, **details: Any) -> PairingRefused:
    return PairingRefused(problem(name, **details))
