"""``club.*``: refusals of the club pages (members, seasons, rating lists), RU and EN."""

from scoring.rules.errors import Catalogue

CLUB = Catalogue(
    "club",
    {
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
            "{name} is already a current member of the club.",
            "{name} уже состоит в клубе.",
        ),
        "end_before_start": (
            "The membership of {name} started on {start}; it cannot end earlier.",
            "Членство {name} началось {start}; оно не может закончиться раньше.",
        ),
        "not_a_member": (
            "{name} is not a current member of the club.",
            "{name} не состоит в клубе.",
        ),
        "no_player": (
            "Pick a player from the search results.",
            "Выберите игрока из результатов поиска.",
        ),
        "bad_months": (
            "“Active in the last N months” takes a whole number from 1 to {top}.",
            "«Играл за последние N месяцев» — целое число от 1 до {top}.",
        ),
    },
)
