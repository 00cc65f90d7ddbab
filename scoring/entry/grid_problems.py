"""What the results grid says about a row it could not read: the ``grid.*`` catalogue.

Only the grid's own reading of the typed cells lives here (a cell that is not a
score); every rule of the result itself is refused by the same workflow as the
single-result page (:mod:`scoring.workflow.problems`, the rules core).
"""

from __future__ import annotations

from scoring.rules.errors import Catalogue

GRID = Catalogue(
    "grid",
    {
        "not_a_score": (
            "Table {table}: «{typed}» is not a score; type a whole number (0 or more).",
            "Стол {table}: «{typed}» — это не счёт; введите целое число (0 или больше).",
        ),
        "not_in_round": (
            "Match {match} is not a table of round {round}; nothing was saved for it.",
            "Матч {match} — не стол тура {round}; для него ничего не сохранено.",
        ),
        "duplicate_row": (
            "Match {match} is sent twice; only its first row was used.",
            "Матч {match} передан дважды; учтена только первая строка.",
        ),
    },
)
