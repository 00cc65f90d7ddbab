"""Plain data shared by every pairing system.

The generators take and return only these frozen dataclasses (no ORM objects),
so the Django manager, the TRF command, the benchmark and the tests all speak
the same language, and a draft round can be serialised as-is for the organiser.
Every decision a generator records (``notes``) is a coded
:class:`~scoring.rules.errors.Problem` of the ``pairing.why`` catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.errors import Problem

PlayerId = int


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
    notes: tuple[Problem, ...] = ()

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
    notes: tuple[Problem, ...] = ()
