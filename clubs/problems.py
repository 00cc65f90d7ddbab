"""``club.*``: refusals about clubs, members and players' categories, in RU and EN."""

from scoring.rules.errors import Catalogue

CLUB = Catalogue(
    "club",
    {
        "category_unchanged": (
            "{player} is already in category {category}: nothing to change.",
            "{player} уже в категории {category}: менять нечего.",
        ),
        "category_reason": (
            "Say why the category changes (for example: the tournament and place that earned it).",
            "Укажите причину смены категории (например, турнир и занятое место).",
        ),
        "category_unknown": (
            "Category {category} does not exist: the book's categories are 1–9.",
            "Категории {category} нет: в книге категории с 1-й по 9-ю.",
        ),
        "category_future": (
            "The date of the change ({on}) is in the future.",
            "Дата смены категории ({on}) ещё не наступила.",
        ),
    },
)
