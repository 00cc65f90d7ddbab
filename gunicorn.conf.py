"""gunicorn's settings for Zarik (read by `bin/serve` and `make serve`), all from the environment.

8 sync workers (one thread each) by default, about 4 per core: on issue 17's load benchmark
(2 cores) they answered result entry 3–5 times faster at the 95th percentile than 4 workers ×
4 threads at the same CPU per request. A request waits on PostgreSQL and Redis a dozen times;
with several threads in one process each wait ended in a queue for the GIL behind the others'
Python work, with one thread per process the kernel's scheduler runs whoever is ready. 12 sync
workers did no better than 8. Sync workers read a slow client's request on the worker itself:
in production put a buffering reverse proxy (nginx, a cloud load balancer) in front, as any
gunicorn deployment should. GUNICORN_THREADS > 1 gives gthread workers. Each thread holds one
database connection, so they are bounded by WEB_CONCURRENCY × GUNICORN_THREADS
(zarik/checks.py compares that with DB_MAX_CONNECTIONS). Scale out with more hosts behind any
load balancer (they share PostgreSQL and Redis).
"""

import os

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "8"))
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
