"""The open draw of numbers (book Part 9: «открытая номерная жеребьёвка»).

Pure and reproducible: the same seed and the same participant list give the
same numbers on any machine, so anyone can re-run a published draw and check
it. ``random.Random`` seeded with a string is stable across Python versions
(seed version 2 hashes the string with SHA-512), and Fisher–Yates via
``shuffle`` consumes it deterministically.
"""

from __future__ import annotations

import hashlib
import random
import secrets

ALGORITHM = "python-random-shuffle-v1"


def new_seed() -> str:
    """A fresh, unguessable seed to publish with the draw."""
    return secrets.token_hex(8)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed (hex), published before the draw so the seed cannot be changed."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def draw_numbers(seed: str, participant_keys: list[str]) -> list[int]:
    """Numbers 1…n for the participants, in the order given.

    ``participant_keys`` must be in a canonical order that anyone can rebuild
    (we use entry ids in registration order); the result's i-th element is the
    number drawn by the i-th participant.
    """
    if len(set(participant_keys)) != len(participant_keys):
        raise ValueError("participant keys must be unique")
    numbers = list(range(1, len(participant_keys) + 1))
    random.Random(f"zarik-draw:{seed}").shuffle(numbers)
    return numbers


def verification_script(seed: str, participant_keys: list[str], published: str) -> str:
    """A few lines of plain Python (no Zarik needed) that re-run the draw and check the commitment.

    Printed on the public verification page, so any participant can copy it into
    a Python 3 shell and see the same numbers the tournament published.
    """
    keys = ", ".join(repr(k) for k in participant_keys)
    return (
        "import hashlib, random\n"
        f"seed = {seed!r}\n"
        f"entries = [{keys}]\n"
        f"print(hashlib.sha256(seed.encode()).hexdigest() == {published!r})\n"
        "numbers = list(range(1, len(entries) + 1))\n"
        'random.Random("zarik-draw:" + seed).shuffle(numbers)\n'
        "for entry, number in zip(entries, numbers):\n"
        "    print(entry, number)\n"
    )
