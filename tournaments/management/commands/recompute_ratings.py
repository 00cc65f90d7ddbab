"""``manage.py recompute_ratings [--pool POOL …]`` — rebuild ratings from the confirmed results.

The same code as the recompute task after a correction
(:func:`tournaments.ratings.service.recompute`), from the first match: every
confirmed result of the pool's rated tournaments, in the stored order, so the
stored ratings always equal a replay of the results. Needed after a tournament's
"rated" flag changes, or to check a database against the published results.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubs.ratings.pools import POOLS
from tournaments.ratings.service import recompute


class Command(BaseCommand):
    help = "Recompute the FIBS ratings of one or every pool from all confirmed rated results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--pool", action="append", choices=sorted(POOLS), dest="pools",
            help="a rating pool (repeat for several; default: every pool)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for pool in options["pools"] or list(POOLS):
            began = time.perf_counter()
            count = recompute(pool)
            seconds = time.perf_counter() - began
            self.stdout.write(f"{pool}: {count} rated matches replayed in {seconds:.2f} s")
