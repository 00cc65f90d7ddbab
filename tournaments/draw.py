"""The open draw of numbers (book Part 9: «открытая номерная жеребьёвка»).

Pure and reproducible: the same seed and the same participant list give the
same numbers on any machine, so anyone can re-run a published draw and check
it. ``random.Random`` seeded with a string is stable across Python versions
(seed version 2 hashes the string with SHA-512), and Fisher–Yates via
``shuffle`` consumes it deterministically.
"""

from __future__ import annotations

import random
import secrets

ALGORITHM = "python-random-shuffle-v1"


def new_seed() -> str:
    """A fresh, unguessable seed to publish with the draw."""
    return secrets.token_hex(8)


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
