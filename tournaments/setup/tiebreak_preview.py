"""The tie-break picker's live preview: the ranking a chosen order gives, before it is saved.

On the tournament's own results when it has finished matches, else on a small
built-in example (8 players × 3 Swiss rounds) computed in memory through the
pure standings core — nothing is written. The organiser sees which criterion
separates whom, and that a later criterion never overturns an earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.errors import Problem, RuleViolation
from tournaments import standings as core
from tournaments.standings_service import load_event

SAMPLE_NAMES = (
    ("Иванов", "Ivanov"),
    ("Петров", "Petrov"),
    ("Сидоров", "Sidorov"),
    ("Белов", "Belov"),
    ("Серов", "Serov"),
    ("Чернов", "Chernov"),
    ("Орлов", "Orlov"),
    ("Соколов", "Sokolov"),
)

#: (round, player a, player b, points a, points b): 5-point matches, Swiss pairings by score.
SAMPLE_MATCHES = (
    (1, 1, 2, 5, 4), (1, 3, 4, 5, 4), (1, 5, 6, 2, 5), (1, 7, 8, 1, 5),
    (2, 1, 3, 5, 4), (2, 6, 8, 5, 4), (2, 2, 4, 3, 5), (2, 5, 7, 5, 0),
    (3, 1, 6, 0, 5), (3, 3, 8, 5, 4), (3, 4, 5, 5, 4), (3, 2, 7, 5, 1),
)  # fmt: skip


def sample_field() -> tuple[list[core.Player], list[core.Match]]:
    """The built-in example: players 1–8 by draw number and their three rounds."""
    players = [
        core.Player(i, ru, latin, draw_number=i) for i, (ru, latin) in enumerate(SAMPLE_NAMES, 1)
    ]
    matches = [
        core.Match(rnd, a, b, sa, sb, winner=a if sa > sb else b)
        for rnd, a, b, sa, sb in SAMPLE_MATCHES
    ]
    return players, matches


@dataclass(frozen=True)
class Preview:
    """What the preview shows: one ranking per section, whose data it is, or the problems."""

    tables: list[tuple[str, core.Standings]]  # (section name, its standings)
    sample: bool
    problems: list[Problem]

    def display(self, language: str) -> list[dict]:
        """Per table: its name, the criteria's (abbreviation, name) and the rows to show."""
        out = []
        for name, table in self.tables:
            metrics = table.metrics
            rows = [
                {
                    "place": row.place_label,
                    "name": row.player.name(language),
                    "values": [_number(row.values.get(m.key)) for m in metrics],
                }
                for row in table.rows
            ]
            columns = [(m.abbr(language), m.name(language)) for m in metrics]
            out.append({"name": name, "columns": columns, "rows": rows})
        return out


def _number(value: float | None) -> str:
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def preview(keys: tuple[str, ...], system: str, tournament=None) -> Preview:
    """The ranking ``keys`` give (empty: the system's default) on the tournament or the sample."""
    options = core.StandingsOptions(system=core.System(system), tiebreaks=keys)
    event = load_event(tournament) if tournament is not None and tournament.pk else None
    if event is not None and any(m.finished for m in event.matches):
        players, matches, names = event.players, event.matches, event.sections
    else:
        event = None
        players, matches = sample_field()
        names = {"": ""}
    try:
        by_section = core.section_standings(players, matches, options)
    except RuleViolation as exc:
        return Preview([], event is None, list(exc.problems))
    tables = [(names.get(key, key), table) for key, table in by_section.items()]
    return Preview(tables, event is None, [])
