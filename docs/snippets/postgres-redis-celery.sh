export DATABASE_URL=postgres://postgres@127.0.0.1:5432/zarik   # psycopg 3
export CELERY_BROKER_URL=redis://127.0.0.1:6379/0              # or amqp://guest:guest@127.0.0.1:5672//
export CACHE_URL=redis://127.0.0.1:6379/1                      # shared cache for several web processes
createdb -h 127.0.0.1 -U postgres zarik
.venv/bin/python manage.py migrate && .venv/bin/python manage.py load_demo
make worker &                                                  # celery -A zarik worker
.venv/bin/python manage.py runserver
