import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
application = get_wsgi_application()

# gunicorn runs no system checks, so the production ones (zarik/production/checks.py: a shared cache, the
# database connection budget) are run here: a misconfigured web server refuses to start.
from zarik.production.checks import production_errors  # noqa: E402  (needs the settings loaded above)

_problems = production_errors()
if _problems:
    raise ImproperlyConfigured("\n".join(f"{p.id}: {p.msg} {p.hint}" for p in _problems))


def _warm_up() -> None:
    """Load the URLs and compile every project template now, in the process gunicorn forks its
    workers from (``preload_app``): each new or recycled worker then answers its first requests
    as fast as the others instead of paying for that while a hall waits (issue 17)."""
    from pathlib import Path

    from django.conf import settings
    from django.template import TemplateSyntaxError
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (the property loads every urls module)
    # Celery's task registry and message machinery (no connection: each worker opens its own
    # on first use): otherwise every worker's first confirmation paid ~0.1 s to set them up.
    from zarik.celery import app as celery_app

    celery_app.loader.import_default_modules()
    celery_app.finalize(auto=True)
    celery_app.amqp.producer_pool  # noqa: B018
    root = Path(settings.BASE_DIR) / "templates"
    for path in root.rglob("*"):
        if path.suffix in (".html", ".txt"):
            try:
                get_template(str(path.relative_to(root)))
            except TemplateSyntaxError:  # a broken template fails on its page, as before
                pass


_warm_up()
