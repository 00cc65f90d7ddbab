"""Settings for Zarik: one module, overridden from the environment.

Defaults give the embedded set-up a newcomer needs (SQLite file, eager Celery,
DEBUG on). Production is ``ZARIK_ENV=production`` plus ``SECRET_KEY``,
``ALLOWED_HOSTS``, ``DATABASE_URL``, ``CACHE_URL`` and ``CELERY_BROKER_URL``; it then
passes ``manage.py check --deploy`` with no warning, and refuses to start without a
shared cache (``zarik/production/checks.py``: several web processes with private caches served
stale pairings).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from zarik.serving import broker_timeouts, postgres_timeouts, sqlite_options, web_concurrency
from zarik.site import default_site_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("ZARIK_ENV", "development") == "production"
DEBUG = env_bool("DEBUG", not PRODUCTION)

if PRODUCTION:
    SECRET_KEY = os.environ["SECRET_KEY"]  # no default: refuse to start without one
else:
    SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production-0123456789")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's assets as our own static files (no CDN)
    "axes",  # login lockout
    "zarik.apps.ZarikConfig",  # the production system checks (zarik/production/checks.py)
    "clubs.apps.ClubsConfig",
    "tournaments.apps.TournamentsConfig",
    "scoring.apps.ScoringConfig",
    "scoring.analysis.apps.AnalysisConfig",  # match analysis by GNU Backgammon (its own tables)
    "scoring.live.apps.LiveConfig",  # the live board: matches recorded step by step (its own tables)
]

MIDDLEWARE = [
    # First, so every response (errors too) carries X-Request-ID and every log line its id.
    "zarik.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "zarik.middleware.QueryLanguageMiddleware",  # ?lang=ru|en on a page, as on the API
    "zarik.security.PrivateLinkLimitMiddleware",  # unknown /p/<token>/ guesses → 429
    "django.middleware.common.CommonMiddleware",
    "zarik.middleware.RejectNulBytesMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Under /api/ only: the request's language and problem details, Idempotency-Key, ETags.
    "tournaments.api.http.middleware.ApiProblemMiddleware",
    "tournaments.api.http.idempotency.IdempotencyMiddleware",
    "tournaments.api.http.etags.ETagMiddleware",
    "tournaments.api.http.written.WrittenMiddleware",  # Location and ETag on writes (issue 28)
    "tournaments.api.http.strict_body.StrictBodyMiddleware",  # unknown body fields → 400 (issue 28)
    "tournaments.api.http.strict_query.StrictQueryMiddleware",  # unknown query parameters → 400 (issue 47)
    "tournaments.api.http.throttling.RateLimitHeadersMiddleware",  # RateLimit(-Policy) (issue 47)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournaments.db_unavailable.DatabaseUnavailableMiddleware",  # a lost DB: 503, input kept
    # Last: turns a lockout into the 429 page (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
]

if PRODUCTION:
    # Static files from the web process after collectstatic; runserver serves them in development.
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "whitenoise.middleware.WhiteNoiseMiddleware")

# Axes checks its lockout before Django's password check (login form, admin, API Basic).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# One account from one address: a typo-prone player does not lock out the whole hall's NAT.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "zarik.security.login_locked_out"
# Behind a proxy set CLIENT_IP_HEADER (e.g. HTTP_X_FORWARDED_FOR) so limits count clients, not the proxy.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "")
if CLIENT_IP_HEADER:
    AXES_IPWARE_META_PRECEDENCE_ORDER = (CLIENT_IP_HEADER, "REMOTE_ADDR")
    AXES_IPWARE_PROXY_COUNT = int(os.environ.get("CLIENT_IP_PROXY_COUNT", "1"))
    RATELIMIT_IP_META_KEY = "zarik.security.client_ip"
# Unknown private-link tokens (/p/<token>/) per client address before a 429 (zarik/security.py).
PRIVATE_LINK_MISS_RATE = os.environ.get("PRIVATE_LINK_MISS_RATE", "20/10m")
# Unknown API tokens per client address before every token from it is answered 429
# (tournaments/api/http/auth.py): a real client never sends many wrong keys.
API_TOKEN_MISS_RATE = os.environ.get("API_TOKEN_MISS_RATE", "30/10m")

# /healthz (zarik/production/health.py): each probe's hard deadline (s), and the token a monitor
# sends (Authorization: Bearer …) to read the checks' details; anonymous callers hear only the status.
HEALTHZ_DEADLINE = float(os.environ.get("HEALTHZ_DEADLINE", "2"))
HEALTHZ_TOKEN = os.environ.get("HEALTHZ_TOKEN", "")

ROOT_URLCONF = "zarik.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "zarik.wsgi.application"

# SQLite file by default; DATABASE_URL (postgres://…) switches to PostgreSQL via psycopg 3.
# Persistent connections only where the number of threads is bounded: gunicorn (production)
# holds at most WEB_CONCURRENCY × GUNICORN_THREADS per host, plus CELERY_CONCURRENCY per
# worker host; runserver starts a thread per request, so there every request closes its
# connection (CONN_MAX_AGE=60 there exhausted PostgreSQL's 100 connections). zarik/production/checks.py
# compares the sum with DB_MAX_CONNECTIONS.
CONN_MAX_AGE = int(os.environ.get("CONN_MAX_AGE", "60" if PRODUCTION else "0"))
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=CONN_MAX_AGE,
        conn_health_checks=True,
    )
}
# PostgreSQL: parameters bound on the server and a statement prepared after five uses on
# its connection (psycopg 3), so the hot queries of result entry are parsed and planned
# once per connection, not per request: a quarter less database CPU per confirmation
# (issue 17). DB_PREPARED=0 behind a pooler that cannot keep prepared statements
# (PgBouncer before 1.21 in transaction mode).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and os.environ.get("DB_PREPARED", "1") == "1":
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that hangs answers 503 in seconds, not a killed worker (zarik/serving.py), and
    # one that froze is cut on this side at the query deadline (zarik/postgresql: Django's
    # engine, every call watched by zarik/db_watchdog.py).
    for _name, _value in postgres_timeouts().items():
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(_name, _value)
    DATABASES["default"]["ENGINE"] = "zarik.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a hall (zarik/serving.py: sqlite_options): writers queue for
    # the lock instead of failing at once, readers never wait for a writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(sqlite_options())
WEB_CONCURRENCY = web_concurrency()  # as gunicorn.conf.py: the env, else 2 per core
GUNICORN_THREADS = int(os.environ.get("GUNICORN_THREADS", "1"))
CELERY_CONCURRENCY = int(os.environ.get("CELERY_CONCURRENCY", "2"))
DB_MAX_CONNECTIONS = int(os.environ.get("DB_MAX_CONNECTIONS", "100"))  # PostgreSQL's max_connections
DB_HOSTS = int(os.environ.get("DB_CLIENT_HOSTS", "1"))  # web hosts sharing the database

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
# English dates day-first with a 24-hour clock, not US (zarik/formats/en/formats.py).
FORMAT_MODULE_PATH = ["zarik.formats"]
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic gathers the files WhiteNoise serves; a stack of its own (a test) names its own.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# The user manual, built by `make docs` (docs/mkdocs.yml) and served at /help/ (zarik/help.py).
HELP_ROOT = Path(os.environ.get("HELP_ROOT", BASE_DIR / "docs" / "build"))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Bounded request bodies: the biggest legitimate form is a results grid (3 fields a table)
# of a 1,000-table round; uploads (imports, .mat records) have their own, smaller limits.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 5000
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 2**20
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 2**20

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "me"  # a player lands on their own match (tournaments.links.landing_views.me)
LOGOUT_REDIRECT_URL = "home"

# Email (registration confirmations, private links): printed to the console by default;
# SMTP when EMAIL_HOST is set in the environment.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Webhooks reach public addresses only (tournaments/notifications/webhook_transport.py); 1 lets a
# receiver on this machine or the local network through — development only.
WEBHOOK_ALLOW_LOCAL = env_bool("WEBHOOK_ALLOW_LOCAL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "zarik@localhost")
# The site's address, the one source of every link in an email (zarik.site): SITE_URL, else the
# local server on PORT (make run PORT=8671 passes it).
SITE_URL = default_site_url(os.environ)

# Cache: local memory by default, Redis when CACHE_URL (or REDIS_URL) is given (shared by all
# web processes; required in production, zarik/production/checks.py).
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")
CACHES = {
    "default": (
        {"BACKEND": "zarik.cache.ResilientRedisCache", "LOCATION": CACHE_URL}  # Redis down = a miss
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "zarik"}
    )
}
# While results pour in, the public standings (and the live-refresh stamp of watching pages)
# are rebuilt at most once per this many seconds and never show a confirmed result later
# than that (tournaments/cache.py); pairings are always rebuilt at once.
STANDINGS_STALE_SECONDS = float(os.environ.get("STANDINGS_STALE_SECONDS", "1.0"))

# Sessions read from the cache, written through to the database: one query less per page.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Celery: no broker configured -> eager, in-process (embedded default needs no server).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else ""
)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Without a broker, long jobs (analysis, exports, pairing, recomputes, bulk uploads) run on a
# few threads of the web process, never in the request (tournaments/jobs/embedded.py);
# "inline" runs them in the caller (the tests' default).
EMBEDDED_JOBS = os.environ.get("ZARIK_EMBEDDED_JOBS", "thread")
# Match analysis (scoring/analysis): GNU Backgammon as a separate program, found on PATH or in
# ANALYSIS_GNUBG_DIRS (Debian's /usr/games); one core and this many seconds per match.
ANALYSIS_GNUBG = os.environ.get("ZARIK_GNUBG", "gnubg")
ANALYSIS_GNUBG_DIRS = ["/usr/games"]
ANALYSIS_TIME_LIMIT = int(os.environ.get("ZARIK_ANALYSIS_TIME_LIMIT", "600"))
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_STORE_EAGER_RESULT = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TRACK_STARTED = True
# Celery's Django fixup closes the database connection after every task unless this is set:
# a new PostgreSQL connection per rating task cost more CPU than the rating itself (issue 17's
# burst). Workers keep theirs as web processes do, by CONN_MAX_AGE (zarik/celery.py).
CELERY_DB_REUSE_MAX = 1000
# In production the worker logs through LOGGING above (JSON lines, like the web processes).
CELERY_WORKER_HIJACK_ROOT_LOGGER = not PRODUCTION
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
# A broker that is down or hung fails a publish in seconds (zarik/serving.py: BROKER_TIMEOUT).
_broker = broker_timeouts()
CELERY_BROKER_CONNECTION_TIMEOUT = _broker["broker_connection_timeout"]
CELERY_BROKER_TRANSPORT_OPTIONS = _broker["broker_transport_options"]
CELERY_TASK_PUBLISH_RETRY_POLICY = _broker["task_publish_retry_policy"]
CELERY_REDIS_SOCKET_TIMEOUT = _broker["redis_socket_timeout"]
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = _broker["redis_socket_connect_timeout"]
CELERY_REDIS_RETRY_ON_TIMEOUT = _broker["redis_retry_on_timeout"]
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = _broker["result_backend_transport_options"]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # API tokens first (their scheme answers a 401), then the session (with CSRF) and Basic.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.api.http.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],  # Basic goes in production unless API_BASIC_AUTH=1 (below); axes locks it out like the login form
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.http.pagination.ApiPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_THROTTLE_CLASSES": ["tournaments.api.http.throttling.ApiRateThrottle"],
    "EXCEPTION_HANDLER": "tournaments.api.http.errors.exception_handler",
    # The API speaks JSON (bounded: a body nested past Python's recursion limit is a 400 problem); a form
    # body is a 415 problem, so the schema declares one media type and the unknown-field check sees every
    # body. The entries import takes multipart/form-data on its own action.
    "DEFAULT_PARSER_CLASSES": ["tournaments.api.http.parsers.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",  # DRF's test client sends what the API takes
    # JSON only, in every environment (issue 44). DRF's browsable pages failed html-has-lang,
    # button-name and contrast, and their inline style sheet and script break the CSP; making them
    # accessible means keeping our own copy of DRF's templates for a page no integrator needs: the
    # manual's API reference and /api/schema/ (with the Swagger UI at /api/docs/) document every
    # operation, and a browser opening /api/ reads the same JSON a client does.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}
# Requests per token, per logged-in user, per anonymous IP address ("N/s|min|hour|day").
ZARIK_API_THROTTLE_RATES = {
    "token": os.environ.get("API_RATE_TOKEN", "1200/min"),
    "user": os.environ.get("API_RATE_USER", "1200/min"),
    "anon": os.environ.get("API_RATE_ANON", "300/min"),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Zarik API",
    "DESCRIPTION": "Tournaments, pairings and results for backgammon and nardy.",
    "VERSION": "0.1.0",
    # OpenAPI 3.1 (issue 47): a nullable field is `oneOf: [{$ref}, {type: null}]` (JSON Schema), which
    # strict validators and generated clients accept, not 3.0's `allOf: [$ref]` beside `nullable`.
    "OAS_VERSION": "3.1.0",
    # Swagger UI from drf-spectacular-sidecar's static files (the CSP allows no CDN).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # one component per webhook event type's payload, from tournaments/events.py (issue 28)
    # One name per choice set that several fields share (else drf-spectacular warns, and
    # `check --deploy` fails): a dispute's outcomes, a round's status, the book's categories.
    "ENUM_NAME_OVERRIDES": {
        "DisputeOutcomeEnum": "scoring.models.Outcome",
        "RoundStatusEnum": "tournaments.models.RoundStatus",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "RegistrationStatusEnum": "tournaments.models.RegistrationStatus",
        "CategoryEnum": "clubs.models.Category",
        "SideEnum": ["a", "b"],
        # a match's winner as the match resources show it (Match, MatchState, MyMatch)
        "MatchWinnerEnum": [("a", "A"), ("b", "B")],
        # the live board's sides: who is on roll, who owns the cube (scoring.live.api)
        "LiveSideEnum": ["white", "black"],
    },
    # Every error is an RFC 9457 problem: the hook declares its schema and each operation's 4xx.
    # The webhooks' payloads are components of their own (one table: tournaments.events).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.http.schema.declare_problems",
        "tournaments.api.http.schema.declare_headers",  # ETag, Location, Content-Location (issue 28)
        "tournaments.notifications.event_docs.add_webhook_schemas",
        "tournaments.api.http.schema.as_openapi_31",  # last: the hand-written parts' `nullable` too
    ],
}

if PRODUCTION and not env_bool("API_BASIC_AUTH", False):
    # A password in every request invites guessing; tokens and sessions remain.
    REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = [
        c for c in REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] if not c.endswith("BasicAuthentication")
    ]

# Content Security Policy on every page (django-csp): scripts and styles from our own files
# only, never inline (tests/test_security.py scans templates/ for inline code).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# LOCAL_HTTP=1 runs the production stack on a laptop without TLS (`make serve`): no redirect to
# https and cookies without the Secure flag (else no browser would send them back over http).
# `check --deploy` warns about exactly that, so never set it on a server.
LOCAL_HTTP = PRODUCTION and env_bool("LOCAL_HTTP", False)

if PRODUCTION:
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$"]  # load balancers probe over plain HTTP
    SESSION_COOKIE_HTTPONLY = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not LOCAL_HTTP)
    SESSION_COOKIE_SECURE = not LOCAL_HTTP
    CSRF_COOKIE_SECURE = not LOCAL_HTTP
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Logs: one JSON object a line in production (LOG_FORMAT=json|text), each with the request's
# id (zarik/logs.py); "zarik.request" logs one line per request at INFO.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "zarik.logs.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "zarik.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "zarik.request": {"level": os.environ.get("REQUEST_LOG_LEVEL", "INFO" if PRODUCTION else "WARNING")},
    },
}
