"""Progress reporting that a Celery task can afford to forward.

The export reports every written row, but the callback (which may update a
task's state in the broker) fires only about ``steps`` times in all, and always
once at the very end with ``done == total``.
"""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[int, int], None]


class Progress:
    def __init__(self, callback: ProgressCallback | None, total: int, steps: int = 100) -> None:
        self.callback = callback
        self.total = max(total, 1)
        self.done = 0
        self._every = max(self.total // steps, 1)
        self._next = self._every

    def advance(self, n: int = 1) -> None:
        self.done = min(self.done + n, self.total)
        if self.callback is not None and self.done >= self._next and self.done < self.total:
            self._next = self.done + self._every
            self.callback(self.done, self.total)

    def finish(self) -> None:
        self.done = self.total
        if self.callback is not None:
            self.callback(self.total, self.total)
