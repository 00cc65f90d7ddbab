#!/usr/bin/env python
"""Django's command-line utility for Zarik."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zarik.settings")
    if sys.argv[1:2] not in (["runserver"], ["testserver"]):
        # A command is a batch job, not a web request: the database's longer statement limit.
        from zarik.serving import run_as_batch

        run_as_batch()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
