"""The absolute champion across category sections (book Part 9).

Winners are decided in each category, "but only the strongest can be champion
of the competition". The organiser chooses how: ``best_result`` compares the
section winners' results (share of the possible score, then the higher
category), ``playoff`` sets the section winners against each other in a small
knockout seeded by category. Pairing *inside* sections is done by the Swiss
generator itself (players carry their section).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.errors import Problem, RuleViolation
from tournaments.pairing.knockout import Bracket, KnockoutEntrant, KnockoutOptions, build_knockout
from tournaments.pairing.types import Note, PlayerId

BEST_RESULT = "best_result"
PLAYOFF = "playoff"


@dataclass(frozen=True, slots=True)
class SectionWinner:
    """A section's winner; ``category`` is the book's number (1 Beginner … 9 Grandmaster)."""

    section: str
    player: PlayerId
    category: int
    score: float
    max_score: float


@dataclass(frozen=True, slots=True)
class ChampionDecision:
    champion: PlayerId | None
    playoff: Bracket | None
    tied: tuple[PlayerId, ...]
    notes: tuple[Note, ...]


def absolute_champion(
    winners: Sequence[SectionWinner], method: str = BEST_RESULT, match_length: int = 11
) -> ChampionDecision:
    if method not in (BEST_RESULT, PLAYOFF):
        raise RuleViolation(
            Problem(
                "sections.method",
                f"Unknown way to decide the absolute champion: {method!r} (best_result or "
                "playoff).",
                f"Неизвестный способ определения абсолютного чемпиона: {method!r} (best_result "
                "или playoff).",
            )
        )
    if not winners:
        raise RuleViolation(
            Problem(
                "sections.none",
                "No section winners were given.",
                "Не указаны победители категорий.",
            )
        )
    ordered = sorted(winners, key=lambda w: (-w.category, w.section))
    if len(ordered) == 1:
        only = ordered[0]
        return ChampionDecision(only.player, None, (), (_note_single(only),))
    if method == PLAYOFF:
        entrants = [KnockoutEntrant(w.player, draw_number=i + 1) for i, w in enumerate(ordered)]
        bracket = build_knockout(
            entrants, KnockoutOptions(seed_by="draw_number", match_lengths=(match_length,))
        )
        note = Note(
            "playoff",
            "The section winners play off for the absolute title, seeded by category (higher "
            "category first).",
            "Победители категорий разыгрывают абсолютное первенство, посев по категориям "
            "(сначала высшая).",
            {"players": [w.player for w in ordered]},
        )
        return ChampionDecision(None, bracket, (), (note,))

    def share(w: SectionWinner) -> float:
        return w.score / w.max_score if w.max_score else 0.0

    best = max(share(w) for w in ordered)
    top = [w for w in ordered if share(w) == best]
    top_cat = top[0].category
    leaders = [w for w in top if w.category == top_cat]
    if len(leaders) > 1:
        note = Note(
            "tie",
            "Section winners tie on result and category; the organiser must set a play-off.",
            "Победители категорий равны по результату и категории; организатор должен "
            "назначить дополнительный матч.",
            {"players": [w.player for w in leaders]},
        )
        return ChampionDecision(None, None, tuple(w.player for w in leaders), (note,))
    w = leaders[0]
    note = Note(
        "best_result",
        f"Player {w.player} ({w.section}) is absolute champion with the best result "
        f"({w.score:g} of {w.max_score:g}); equal results go to the higher category.",
        f"Игрок {w.player} ({w.section}) — абсолютный чемпион с лучшим результатом "
        f"({w.score:g} из {w.max_score:g}); при равенстве выше высшая категория.",
        {"player": w.player},
    )
    return ChampionDecision(w.player, None, (), (note,))


def _note_single(w: SectionWinner) -> Note:
    return Note(
        "single_section",
        f"Only one section: its winner {w.player} is the champion.",
        f"Категория одна: её победитель {w.player} — чемпион.",
        {"player": w.player},
    )
