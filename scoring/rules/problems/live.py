"""``live.*``: why a step of a live recording is refused (RU and EN, one row per code)."""

from scoring.rules.errors import Catalogue

LIVE = Catalogue(
    "live",
    {
        "out_of_order": (
            "Step {got} arrived out of order: the recording expected step {expected} "
            "({expected_what}). Reload to see the last recorded step.",
            "Шаг {got} пришёл не по порядку: запись ждала шаг {expected} ({expected_what}). "
            "Обновите страницу, чтобы увидеть последний записанный шаг.",
        ),
        "wrong_step": (
            "A {kind} cannot be recorded now: the recording expects {expected_what}.",
            "Сейчас нельзя записать «{kind}»: запись ждёт {expected_what}.",
        ),
        "bad_dice": (
            "The dice must be two numbers from 1 to 6 (got {dice}).",
            "Зары — два числа от 1 до 6 (получено {dice}).",
        ),
        "opening_side": (
            "Say who moves first in game {game}: White or Black.",
            "Укажите, кто ходит первым в партии {game}: белые или чёрные.",
        ),
        "wrong_side": (
            "It is {expected}'s turn, not {got}'s.",
            "Сейчас очередь {expected}, а не {got}.",
        ),
        "illegal_play": (
            "The play {play} is not legal with {dice}: {why}",
            "Ход {play} невозможен при зарах {dice}: {why}",
        ),
        "bad_resignation": (
            "A resignation must be for one of: {kinds} (got {kind}).",
            "Сдаться можно только на одно из: {kinds} (получено {kind}).",
        ),
        "match_over": (
            "The match is over ({score}); nothing more can be recorded.",
            "Матч окончен ({score}); больше ничего записать нельзя.",
        ),
        "unknown_step": (
            "Unknown step kind {kind}.",
            "Неизвестный вид шага {kind}.",
        ),
        "not_finished": (
            "The recording is not finished: the match is at {score}.",
            "Запись не окончена: в матче счёт {score}.",
        ),
        "not_recorder": (
            "Only the match's players (through their private links) or the recorder the referee "
            "appointed may record this match.",
            "Записывать этот матч могут только его игроки (по личным ссылкам) или секретарь "
            "записи, назначенный судьёй.",
        ),
        "bad_step": (
            "The step could not be read: {reason}.",
            "Шаг не удалось прочитать: {reason}.",
        ),
        "result_differs": (
            "The recording ends {recorded}, but the result entered is {entered}; it was kept as a "
            "report for the opponent to confirm instead.",
            "Запись заканчивается со счётом {recorded}, а внесён результат {entered}; она сохранена "
            "как сообщение о результате, которое подтверждает соперник.",
        ),
    },
)
