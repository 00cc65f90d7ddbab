"""``ratings.*``: what the ratings core refuses, said once in English and Russian.

Every refusal names the match it is about (its number in the input, counted from
1, and both players), so a federation officer with a thousand matches in a file
finds the one to fix. Nothing is ever skipped silently: a match the core cannot
rate stops the whole replay, because every later rating would depend on it.
"""

from __future__ import annotations

from scoring.rules.errors import Catalogue

RATINGS = Catalogue(
    "ratings",
    {
        # a match
        "unknown_player": (
            "Match {index} ({a} – {b}): {player} is not in the starting table.",
            "Матч {index} ({a} – {b}): игрока {player} нет в начальной таблице.",
        ),
        "same_player": (
            "Match {index} ({a} – {b}): a player cannot play against themselves.",
            "Матч {index} ({a} – {b}): игрок не может играть сам с собой.",
        ),
        "bad_length": (
            "Match {index} ({a} – {b}): the length {length} is not a whole number of at least 1.",
            "Матч {index} ({a} – {b}): длина {length} не целое число не меньше 1.",
        ),
        "bad_score": (
            "Match {index} ({a} – {b}): the score {score_a}:{score_b} is not two numbers ≥ 0.",
            "Матч {index} ({a} – {b}): счёт {score_a}:{score_b} — не два числа ≥ 0.",
        ),
        "points_score": (
            "Match {index} ({a} – {b}): {score_a}:{score_b} cannot end a match to {length} "
            "points: exactly one player must reach {length}.",
            "Матч {index} ({a} – {b}): счёт {score_a}:{score_b} не может завершить матч до "
            "{length} очков: ровно один игрок должен набрать {length}.",
        ),
        "games_score": (
            "Match {index} ({a} – {b}): {score_a}:{score_b} cannot end a match of {length} "
            "games: the games won (a draw counts ½ to each) must add up to {length}.",
            "Матч {index} ({a} – {b}): счёт {score_a}:{score_b} не может завершить матч из "
            "{length} партий: выигранные партии (ничья — по ½ каждому) должны в сумме дать "
            "{length}.",
        ),
        "length_and_games": (
            "Match {index} ({a} – {b}): give either \"length\" (points) or \"games\" "
            "(a fixed number of games), exactly one of them.",
            "Матч {index} ({a} – {b}): укажите либо «length» (очки), либо «games» "
            "(фиксированное число партий) — ровно одно из двух.",
        ),
        "missing_field": (
            "Match {index}: the field \"{field}\" is missing.",
            "Матч {index}: нет поля «{field}».",
        ),
        "not_a_match": (
            "Match {index}: expected an object with \"a\", \"b\", \"length\" or \"games\", "
            "\"score_a\", \"score_b\".",
            "Матч {index}: ожидается объект с полями «a», «b», «length» или «games», "
            "«score_a», «score_b».",
        ),
        # the starting table
        "bad_rating": (
            "Starting table, {player}: the rating {value} is not a number.",
            "Начальная таблица, {player}: рейтинг {value} — не число.",
        ),
        "bad_experience": (
            "Starting table, {player}: the experience {value} is not a number ≥ 0.",
            "Начальная таблица, {player}: опыт {value} — не число ≥ 0.",
        ),
        # the file as a whole
        "bad_file": (
            "The input must be an object {{\"start\": {{…}}, \"matches\": [ … ]}}: {reason}.",
            "Входные данные должны быть объектом {{\"start\": {{…}}, \"matches\": [ … ]}}: "
            "{reason}.",
        ),
        "file_unreadable": (
            "Cannot read {path}: {reason}.",
            "Не удаётся прочитать {path}: {reason}.",
        ),
        "file_not_json": (
            "{path} is not valid JSON: {reason} (line {line}, column {column}).",
            "{path} — некорректный JSON: {reason} (строка {line}, столбец {column}).",
        ),
    },
)
