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
        "broker_unavailable": (
            "The job queue did not answer, so the job was not started and nothing was written. "
            "Try again in a minute; a new attempt starts afresh.",
            "Очередь задач не ответила, поэтому задача не запущена и ничего не записано. "
            "Повторите через минуту; новая попытка начнётся заново.",
        ),
        "failed": (
            "The job failed unexpectedly; nothing was written. The organisers have been notified.",
            "Задача неожиданно прервалась; ничего не записано. Организаторы уведомлены.",
        ),
    },
)
