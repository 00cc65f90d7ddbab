# Zarik: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
HOST   ?= 127.0.0.1
STAMP  := $(VENV)/.installed

.PHONY: run serve test abuse lint bench soak worker migrate demo messages docs clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $(STAMP)

## docs: the user manual (docs/, MkDocs in strict mode: a broken link or a missing picture fails),
## its screenshots taken from the demo in Debian's chromium first; built into docs/build/, served at /help/.
docs: $(STAMP)
	$(PY) docs/screenshots.py
	@# Never with --quiet: it hides the warnings from the counter --strict fails on.
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict -f docs/mkdocs.yml

# make run and make serve build the manual when it is missing. Without chromium it is built
# without its pictures (and says so), so the first `make run` never needs a browser.
docs/build/index.html: | $(STAMP)
	@if [ -x /usr/bin/chromium ]; then $(MAKE) --no-print-directory docs; else \
	  echo "chromium is missing: the manual is built without its pictures (apt-get install chromium, then make docs)"; \
	  NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --quiet -f docs/mkdocs.yml 2>/dev/null; fi

## run: install, migrate the SQLite database, load the demo, build the manual if missing, serve
## http://127.0.0.1:$(PORT); HOST=0.0.0.0 serves the hall's network (bin/run): it prints the LAN address,
## builds links and QR codes from it, and shows no debug page there.
run: $(STAMP) docs/build/index.html
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	HOST=$(HOST) PORT=$(PORT) VENV=$(VENV) exec sh bin/run

## serve: the production stack locally: gunicorn (WEB_CONCURRENCY workers) + a Celery worker on
## PostgreSQL and Redis, static files by WhiteNoise, over plain http://127.0.0.1:$(PORT) (LOCAL_HTTP=1).
## Migrations run as DATABASE_OWNER_URL's user (postgres); the web and the worker as the application
## role zarik_app (DATABASE_URL), which reads and writes rows but owns no table (manage.py db_app_role).
## Every variable may be overridden; on a server run bin/serve with the environment of the manual's operator part.
serve: $(STAMP) docs/build/index.html
	@# Only the default database gets the two roles: a DATABASE_URL of your own is used as given
	@# (add DATABASE_OWNER_URL to have it made an application role).
	if [ -z "$${DATABASE_URL:-}" ]; then \
	  DATABASE_OWNER_URL="$${DATABASE_OWNER_URL:-postgres://postgres@127.0.0.1:5432/zarik}"; \
	  DATABASE_URL="postgres://zarik_app:local-serve-only-zarik-app@127.0.0.1:5432/zarik"; \
	  export DATABASE_OWNER_URL DATABASE_URL; fi; \
	ZARIK_ENV=production \
	SECRET_KEY="$${SECRET_KEY:-local-serve-only-not-for-a-server-$$(hostname)-0123456789abcdefghij}" \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost}" \
	LOCAL_HTTP="$${LOCAL_HTTP:-1}" \
	CACHE_URL="$${CACHE_URL:-redis://127.0.0.1:6379/1}" \
	CELERY_BROKER_URL="$${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}" \
	PORT=$(PORT) VENV=$(VENV) exec sh bin/serve

## test: install, check the architecture contracts (lint-imports) and run the whole suite (translations are committed compiled, so no gettext is needed)
## on PYTEST_WORKERS processes (pytest-xdist; `auto`: one per core, 0: in this process alone);
## PYTEST_ARGS adds pytest options, e.g. PYTEST_ARGS="tests/core -k standings".
PYTEST_WORKERS ?= auto
test: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

## soak: the whole-event simulator for a long run: SOAK_EXAMPLES events of SOAK_STEPS actions each,
## every system drawn with the other options, a new seed every run (printed first; SOAK_SEED=<it>
## replays a run); DATABASE_URL picks the engine; SOAK_MINUTES stops it after that long;
## SOAK_TALLY names the file that gets one line per event played. It ends with the coverage table
## (tests/simulator/coverage.py) and fails when a run failed, or a system or an action was never reached.
soak: $(STAMP)
	@tally=$${SOAK_TALLY:-soak-tally.txt}; : > $$tally; \
	  seed=$${SOAK_SEED:-$$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')}; \
	  echo "soak seed $$seed (replay: SOAK_SEED=$$seed SOAK_EXAMPLES=$${SOAK_EXAMPLES:-1000} SOAK_STEPS=$${SOAK_STEPS:-60} make soak)"; \
	  ZARIK_SIMULATOR_RANDOM=1 ZARIK_SIMULATOR_SEED=$$seed ZARIK_SIMULATOR_EXAMPLES=$${SOAK_EXAMPLES:-1000} \
	  ZARIK_SIMULATOR_STEPS=$${SOAK_STEPS:-60} ZARIK_SIMULATOR_TALLY=$$tally \
	    timeout $$(( $${SOAK_MINUTES:-600} * 60 )) $(PY) -m pytest -q -p no:logging tests/simulator/test_whole_event.py; \
	  status=$$?; $(PY) -m tests.simulator.coverage $$tally; covered=$$?; \
	  [ $$status -eq 124 ] && echo "stopped after $${SOAK_MINUTES:-600} minutes" && status=0; \
	  [ $$status -eq 0 ] && exit $$covered; exit $$status

## abuse: replay issue 29's attacks and faults alone (hostile bodies, forged archives, a hung database
## and broker, token and link guessing, races); `make test` runs them too, on both engines in CI.
abuse: $(STAMP)
	$(PY) -m pytest -q $$(find tests -name 'test_hardening_*.py' | sort)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	for f in bench/*.py; do \
	  case $$f in *load_results.py|*big_event.py) [ -n "$$DATABASE_URL" ] || { echo "== $$f skipped: needs DATABASE_URL=postgres://…"; continue; };; esac; \
	  echo "== $$f"; $(PY) $$f || exit 1; done

worker: $(STAMP)
	$(VENV)/bin/celery -A zarik worker --loglevel=info

messages: $(STAMP)
	$(PY) manage.py makemessages -l ru -l en --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 docs/build docs/manual/assets/shots
