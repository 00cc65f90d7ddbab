"""gunicorn's settings for Zarik (read by `bin/serve` and `make serve`), all from the environment.

Sync workers (one thread each), 2 per core by default (`zarik.serving.web_concurrency`; its
note says why: on issue 17's load benchmark they beat 4 per core on every figure). A request
waits on PostgreSQL and Redis a dozen times; with several threads in one process each wait
ended in a queue for the GIL behind the others' Python work (4 workers × 4 threads answered
result entry 3–5 times slower at the 95th percentile), with one thread per process the
kernel's scheduler runs whoever is ready. Sync workers read a slow client's request on the
worker itself: in production put a buffering reverse proxy (nginx, a cloud load balancer) in
front, as any gunicorn deployment should. GUNICORN_THREADS > 1 gives gthread workers. Each
thread holds one database connection, so they are bounded by WEB_CONCURRENCY ×
GUNICORN_THREADS (zarik/production/checks.py compares that with DB_MAX_CONNECTIONS). Scale out with
more hosts behind any load balancer (they share PostgreSQL and Redis).
"""

import os

from zarik.serving import web_concurrency

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = web_concurrency()
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
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


def pre_fork(server, worker):
    """Move everything the preloaded app made into the garbage collector's permanent
    generation before forking (as CPython's gc.freeze documents): workers no longer scan the
    app's hundreds of thousands of objects in each full collection, nor copy the pages that
    hold them."""
    import gc

    gc.freeze()
