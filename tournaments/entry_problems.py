"""``entry.*``: refusals about one entry (check-in, withdrawal, registration, import), RU and EN."""

from scoring.rules.errors import Catalogue

ENTRY = Catalogue(
    "entry",
    {
        "withdrawn_check_in": (
            "A withdrawn player must be reinstated before checking in.",
            "Выбывшего игрока нужно сначала восстановить, потом отметить его прибытие.",
        ),
    },
)
