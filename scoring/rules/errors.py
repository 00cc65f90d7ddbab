"""Structured, bilingual problems reported by the cores and the shell: one type, one catalogue a namespace.

Every finding a user may see (a misprint in a record, an impossible match score, a
pairing the director must confirm, a refused workflow step) is a :class:`Problem`:
a stable ``code`` such as ``record.no_checker``, where it happened (move, side,
game, the text typed there) and the ``details`` the message needs. The words live
only in the namespace's :class:`Catalogue` (``record.*``, ``match.*``,
``pairing.*``, ``standings.*``, ``workflow.*``), never at the call site, so:

- a message is said once and in one place per code, in Russian and English;
- a problem stored as data (a round's explanation, an audit entry) is rendered
  later in the *reader's* language (:meth:`Problem.to_data` / :meth:`Problem.from_data`);
- the place ("Move 12, White: ", "Game 4: ") is added once, by :meth:`Problem.message`,
  and the sides of a match ("a", "b") are shown as the players' names when the
  shell passes them (``names={"a": "Иванов", "b": "Петров"}``).

Pure Python: the cores import it, the Django shell renders it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A catalogue entry: the English and the Russian template (``str.format`` fields from ``details``).
Template = tuple[str, str]

#: Turns (details, language, names) into the mapping the templates are formatted with.
Fields = Callable[[Mapping[str, Any], str, Mapping[str, str]], Mapping[str, Any]]

#: Side words for the place prefix and for ``{side}``-like fields.
_SIDE_WORDS: dict[str, tuple[str, str]] = {
    "white": ("White", "белые"),
    "black": ("Black", "чёрные"),
}


def is_english(language: str) -> bool:
    """The one rule for choosing the English text: a language code starting with ``en``."""
    return (language or "").lower().startswith("en")


def side_word(side: str, language: str, names: Mapping[str, str] | None = None) -> str:
    """A side as people say it: a player's name when known, else White/Black, else the key."""
    if names and side in names:
        return names[side]
    words = _SIDE_WORDS.get(side)
    if words is None:
        return side
    return words[0] if is_english(language) else words[1]


class _Blank(dict[str, Any]):
    """Format mapping that leaves an absent optional field blank instead of failing."""

    def __missing__(self, key: str) -> str:
        return ""


def plain_fields(details: Mapping[str, Any], language: str, names: Mapping[str, str]) -> Mapping[str, Any]:
    """Default field rule: details as given; ``side``/``player``/``winner`` values become names."""
    fields = _Blank(details)
    for key in ("side", "player", "winner", "loser", "doubler", "taker"):
        value = details.get(key)
        if isinstance(value, str):
            fields[f"{key}_name"] = side_word(value, language, names)
    return fields


def reader_date(value: Any, language: str) -> Any:
    """A date detail as the reader writes dates: 05.12.2026 in Russian, 2026-12-05 in English.

    Problems are stored as data, so a date travels as its ISO text and is only written out for
    the reader here; anything that is not an ISO date is returned unchanged.
    """
    try:
        day = dt.date.fromisoformat(str(value))
    except ValueError:
        return value
    return day.isoformat() if is_english(language) else day.strftime("%d.%m.%Y")


def dated_fields(*keys: str) -> Fields:
    """A field rule: :func:`plain_fields`, with the details named by ``keys`` written as dates."""

    def fields(details: Mapping[str, Any], language: str, names: Mapping[str, str]) -> Mapping[str, Any]:
        out = plain_fields(details, language, names)
        for key in keys:
            if key in details:
                out[key] = reader_date(details[key], language)
        return out

    return fields


@dataclass(frozen=True, slots=True)
class _Entry:
    en: str
    ru: str
    catalogue: Catalogue


_REGISTRY: dict[str, _Entry] = {}


def is_catalogued(code: str) -> bool:
    """Whether ``code`` is a row of some catalogue (so a client may rely on it)."""
    return code in _REGISTRY


class Catalogue:
    """All problem codes of one namespace with their RU/EN templates; a newcomer adds a row.

    ``fields`` lets a namespace derive template fields from details (Russian case
    forms, names for sides); the default is :func:`plain_fields`.
    """

    def __init__(
        self, namespace: str, templates: Mapping[str, Template], *, fields: Fields = plain_fields
    ) -> None:
        self.namespace = namespace
        self.fields = fields
        self._names: list[str] = []
        for name, (en, ru) in templates.items():
            code = f"{namespace}.{name}"
            if code in _REGISTRY:
                raise ValueError(f"problem code {code!r} is defined twice")
            _REGISTRY[code] = _Entry(en, ru, self)
            self._names.append(name)

    def code(self, name: str) -> str:
        code = f"{self.namespace}.{name}"
        if code not in _REGISTRY:
            raise KeyError(f"{code!r} is not in the {self.namespace} catalogue")
        return code

    def problem(
        self,
        name: str,
        *,
        move: int | None = None,
        side: str | None = None,
        game: int | None = None,
        text: str | None = None,
        **details: Any,
    ) -> Problem:
        """The problem ``namespace.name`` at the given place, with the details its message needs."""
        return Problem(self.code(name), move=move, side=side, game=game, text=text, details=details)

    def __contains__(self, name: object) -> bool:
        return f"{self.namespace}.{name}" in _REGISTRY

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def templates(self, name: str) -> Template:
        entry = _REGISTRY[self.code(name)]
        return entry.en, entry.ru


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: a stable code, its place, and the details its message is built from.

    ``move``/``side`` locate a problem in a game record, ``game`` in a match
    ledger; ``text`` is what the user typed there, echoed back so nothing is lost.
    The message itself lives in the code's catalogue and is rendered on demand, so
    a problem carries no words and can be stored and shown later in any language.
    """

    code: str
    move: int | None = None
    side: str | None = None
    game: int | None = None
    text: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def message(self, language: str = "ru", names: Mapping[str, str] | None = None) -> str:
        """The message in ``language`` with its place said once; sides shown as ``names``."""
        entry = _REGISTRY.get(self.code)
        names = names or {}
        if entry is None:
            body = self.code
        else:
            template = entry.en if is_english(language) else entry.ru
            body = template.format_map(entry.catalogue.fields(self.details, language, names))
        if through := self.details.get("through_play"):
            # A play printed in a side's own numbering (.mat) is quoted as printed; the
            # through numbering, in which the board is often read, goes beside it.
            english = is_english(language)
            nearest = self.details.get("through_inferred")
            if nearest:  # both plays in the one numbering, each said for what it is
                through = (f"printed {through}; nearest legal {nearest}" if english
                           else f"записано {through}; ближайший ход по правилам {nearest}")
            body += f" ({'through numbering' if english else 'в сквозной нумерации'}: {through})"
        return self.place(language, names) + body

    def place(self, language: str = "ru", names: Mapping[str, str] | None = None) -> str:
        """Where it happened, as a prefix: "Move 12, White: ", "Партия 4: ", or ""."""
        english = is_english(language)
        parts: list[str] = []
        if self.game is not None:
            parts.append(f"{'Game' if english else 'Партия'} {self.game}")
        if self.move is not None:
            word = ("move" if parts else "Move") if english else ("ход" if parts else "Ход")
            parts.append(f"{word} {self.move}")
        if self.side is not None:
            parts.append(side_word(self.side, language, names))
        return ", ".join(parts) + ": " if parts else ""

    @property
    def en(self) -> str:
        return self.message("en")

    @property
    def ru(self) -> str:
        return self.message("ru")

    def as_dict(self, language: str = "en", names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The problem as shown to a client: code, rendered message and place."""
        return {
            "code": self.code,
            "message": self.message(language, names),
            "move": self.move,
            "side": self.side,
            "game": self.game,
            "text": self.text,
        }

    def to_data(self) -> dict[str, Any]:
        """JSON-safe form for storage (explanations, audit): code, place and details, no words."""
        data: dict[str, Any] = {"code": self.code}
        for key in ("move", "side", "game", "text"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.details:
            data["details"] = dict(self.details)
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Problem:
        """The inverse of :meth:`to_data`."""
        return cls(
            str(data["code"]),
            move=data.get("move"),
            side=data.get("side"),
            game=data.get("game"),
            text=data.get("text"),
            details=dict(data.get("details") or {}),
        )


class RuleViolation(ValueError):
    """Raised where a caller asked for something the rules forbid (carries the problems).

    Most callers catch it for ``problems``; the English text is rendered only when the
    exception is shown (``str(exc)``), not each time one is raised.
    """

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__(self.problems)

    def __str__(self) -> str:
        return "; ".join(p.en for p in self.problems)
