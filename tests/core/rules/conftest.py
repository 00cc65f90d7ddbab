"""Shared fixtures for the rules-core tests: positions from seeded random games."""

from __future__ import annotations

import random

import pytest

from scoring.rules import Position, is_game_over, legal_plays


def random_game_positions(
    games: int, seed: int, variant: str = "backgammon"
) -> list[tuple[Position, tuple[int, int]]]:
    """(position, roll) pairs met while playing ``games`` random games to the end."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    for _ in range(games):
        pos = Position.start(variant, rng.randint(0, 1))
        for _ply in range(400):
            if is_game_over(pos):
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((pos, dice))
            pos = rng.choice(legal_plays(pos, dice)).position
    return out


@pytest.fixture(scope="session")
def backgammon_positions() -> list[tuple[Position, tuple[int, int]]]:
    return random_game_positions(40, seed=20240601)


@pytest.fixture(scope="session")
def game_positions():
    """Factory: ``game_positions(variant, games, seed)`` for other variants."""
    return random_game_positions
