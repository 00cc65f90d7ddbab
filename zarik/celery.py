"""The Celery app.

With no ``CELERY_BROKER_URL`` in the environment, settings turn on eager mode,
so tasks run in-process and the embedded default needs no server. With one
(Redis or RabbitMQ), tasks go to real workers: ``celery -A zarik worker``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

app = Celery("zarik")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="zarik.ping")
def ping(value: int) -> dict:
    """A trivial task for the worker smoke test: proves a real worker ran it."""
    return {"pong": value * 2, "pid": os.getpid()}
