"""The Celery app.

With no ``CELERY_BROKER_URL`` in the environment, settings turn on eager mode,
so tasks run in-process and the embedded default needs no server. With one
(Redis or RabbitMQ), tasks go to real workers: ``celery -A zarik worker``.
"""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init
from django.db import close_old_connections

from zarik.serving import run_as_batch

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")

app = Celery("zarik")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="zarik.ping")
def ping(value: int) -> dict:
    """A trivial task for the worker smoke test: proves a real worker ran it."""
    return {"pong": value * 2, "pid": os.getpid()}


@worker_init.connect
def tasks_are_batch_jobs(**_kwargs) -> None:
    """A worker's tasks (generating, exporting, re-rating a whole event) take the database's batch
    statement limit, not a web request's (:func:`zarik.serving.statement_timeout_ms`); its pool's
    processes are forked after this and inherit it."""
    run_as_batch()


@task_prerun.connect
@task_postrun.connect
def connections_as_in_a_request(task=None, **_kwargs) -> None:
    """A worker keeps its database connection between tasks, as a web process keeps it between
    requests: dropped when broken or older than ``CONN_MAX_AGE`` (Django's request rule).

    ``CELERY_DB_REUSE_MAX`` stops Celery closing it after every task (a new PostgreSQL
    connection costs more than most tasks). Not for an eager task: it runs inside a request,
    maybe inside its transaction.
    """
    if task is not None and not task.request.is_eager:
        close_old_connections()
