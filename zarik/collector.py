"""The garbage collector paused while a big event's objects are built (issue 32).

A big event's read, ranking, pairing, workbook, archive and ratings replay each make some
10^5 objects that live on and hold no cycles; counted towards the collector's thresholds,
they set off full passes over the whole heap inside those steps. One helper for all of
them, here beside the other process-wide settings.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def few_collections(*, kept: bool = False) -> Iterator[None]:
    """No garbage collection while a big event is read and ranked, paired, or written out
    as a workbook or an archive (then as usual).

    Reading a 10,000-player Swiss makes some 10^5 objects that all live on and hold no
    cycles; each of them counted towards the collector's thresholds, and its full passes
    over the whole heap took a quarter of the cold standings' two seconds (issue 32), and
    up to a third of pairing, the workbook and the archive. How many full passes fell in a
    step depended on the process's heap, not on the step: a few at 10,000 players, none at
    2,000, so these steps grew faster than the field. The collector is only paused (nothing
    it would free is lost) and resumes afterwards.

    ``kept``: what was built stays in this process (an event snapshot, kept for the pages)
    and is freed by reference counting when dropped, so it goes straight to the oldest
    generation instead of being scanned by the young passes on the way there (40–70 ms
    after each cold standings build at 10,000 players)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if kept:
                gc.freeze()  # every object alive now moves to the permanent generation
                gc.unfreeze()  # and from there to the oldest one, unscanned
            gc.enable()
