"""gunicorn's settings for Zarik (read by `bin/serve` and `make serve`), all from the environment.

4 workers × 4 threads (gthread) by default: what issue 17's load benchmark measured best on a
2-core host (8 sync workers and 6 × 2 did worse); each thread holds one database connection,
so they are bounded by WEB_CONCURRENCY × GUNICORN_THREADS (zarik/checks.py compares that with
DB_MAX_CONNECTIONS). GUNICORN_THREADS=1 gives sync workers. Scale out with more hosts behind
any load balancer (they share PostgreSQL and Redis), or about 2 workers per core per host.
"""

import os

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))  # a request longer than this is killed
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests (jittered), so slow leaks never accumulate.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = max_requests // 10
# The app is imported once in the master: a misconfiguration (zarik/wsgi.py's checks) stops
# the server at start instead of every worker failing in a loop; workers share its memory.
preload_app = True
# One log line per request comes from zarik.middleware.RequestIdMiddleware (JSON, with the
# request id); gunicorn's access log would repeat it without the id.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
