import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
application = get_wsgi_application()

# gunicorn runs no system checks, so the production ones (zarik/checks.py: a shared cache, the
# database connection budget) are run here: a misconfigured web server refuses to start.
from zarik.checks import production_errors  # noqa: E402  (needs the settings loaded above)

_problems = production_errors()
if _problems:
    raise ImproperlyConfigured("\n".join(f"{p.id}: {p.msg} {p.hint}" for p in _problems))
