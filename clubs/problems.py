"""``club.*``: refusals about clubs — members, seasons, rating lists, players' categories — RU and EN."""

from scoring.rules.errors import Catalogue, dated_fields

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
        "bad_points": (
            "{value!r} is not a list of points: write numbers separated by commas, e.g. "
            "“25, 18, 15, 12, 10”.",
            "{value!r} — не список очков: напишите числа через запятую, например "
            "«25, 18, 15, 12, 10».",
        ),
        "negative_points": (
            "Points cannot be negative ({value}).",
            "Очки не могут быть отрицательными ({value}).",
        ),
        "too_many_places": (
            "At most {top} places can score points.",
            "Очки можно дать не более чем за {top} мест.",
        ),
        "slug_taken": (
            "The address {value!r} is taken by another season.",
            "Адрес {value!r} уже занят другим сезоном.",
        ),
        "ends_before_start": (
            "The season cannot end before it starts.",
            "Сезон не может закончиться раньше, чем начался.",
        ),
        "already_member": (
            "{player} is already a current member of the club.",
            "{player} уже состоит в клубе.",
        ),
        "end_before_start": (
            "The membership of {player} started on {start}; it cannot end earlier.",
            "Членство {player} началось {start}; оно не может закончиться раньше.",
        ),
        "bad_months": (
            "“Active in the last N months” takes a whole number from 1 to {top}.",
            "«Играл за последние N месяцев» — целое число от 1 до {top}.",
        ),
    },
    fields=dated_fields("on", "start"),  # ISO dates in the details, the reader's way in the text
)
