"""Django's PostgreSQL engine with a hard deadline on this side of every call (zarik/db_watchdog.py)."""
