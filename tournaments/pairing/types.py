"""Plain data shared by every pairing system.

The generators take and return only these frozen dataclasses (no ORM objects),
so the Django manager, the TRF command, the benchmark and the tests all speak
the same language, and a draft round can be serialised as-is for the organiser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PlayerId = int


@dataclass(frozen=True, slots=True)
class Note:
    """One recorded decision of a generator, in both languages.

    Organisers must be able to see *why* a pairing came out as it did (which
    group, who floated and for what reason); ``code`` is stable for tests and
    UI icons, ``details`` carries the raw figures the sentence was built from.
    """

    code: str
    en: str
    ru: str
    details: dict[str, Any] = field(default_factory=dict)

    def message(self, language: str = "ru") -> str:
        return self.en if language.startswith("en") else self.ru

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        return {"code": self.code, "message": self.message(language), "details": self.details}


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round.

    ``a`` is the higher-ranked player. ``white`` is set only when the format
    cares about sides (long nardy with a fixed number of games); in backgammon
    it stays ``None``. ``rematch`` is true only in a proposal the organiser must
    explicitly accept.
    """

    table: int
    a: PlayerId
    b: PlayerId
    white: PlayerId | None = None
    section: str = ""
    rematch: bool = False
    notes: tuple[Note, ...] = ()

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.a, self.b)


BYE_PAIRING = "pairing"
BYE_REQUESTED = "requested"
BYE_ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class Bye:
    """A player who sits the round out, and what it is worth.

    ``kind`` is ``pairing`` (odd field: the pairing gave the bye), ``requested``
    (the player asked for a half-point bye) or ``absent`` (known absence, zero).
    """

    player: PlayerId
    kind: str
    points: float
    section: str = ""
    notes: tuple[Note, ...] = ()
