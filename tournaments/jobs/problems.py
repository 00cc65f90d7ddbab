"""``job.*``: what a background job (an export, a big pairing) can tell its progress page."""

from scoring.rules.errors import Catalogue

JOB = Catalogue(
    "job",
    {
        "tournament_missing": (
            "Tournament #{tournament} no longer exists; nothing to do.",
            "Турнир №{tournament} больше не существует; делать нечего.",
        ),
        "worker_failed": (
            "The background worker failed; nothing was written. Try again, or tell the organisers.",
            "Фоновый процесс завершился с ошибкой; ничего не записано. Повторите или сообщите организаторам.",
        ),
        "failed": (
            "The job failed unexpectedly; nothing was written. The organisers have been notified.",
            "Задача неожиданно прервалась; ничего не записано. Организаторы уведомлены.",
        ),
    },
)
