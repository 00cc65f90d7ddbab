"""Text in, report out: the one call a shell makes to validate a book-style record.

The ``validate_record`` command and the record form use it, so a record is accepted or
refused for the same reason everywhere; reading and replaying stay separate steps
(:mod:`scoring.rules.records.reader`, :mod:`scoring.rules.records.replay`) for callers that
need the :class:`~scoring.rules.records.events.Record` in between.
"""

from __future__ import annotations

from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay
from scoring.rules.records.report import ReplayReport


def validate_text(
    text: str, *, variant: str | None = None, numbering: str | None = None
) -> ReplayReport:
    """Parse and replay book-style text in one call (the ``validate_record`` command)."""
    return replay(parse_record(text, variant=variant, numbering=numbering))
