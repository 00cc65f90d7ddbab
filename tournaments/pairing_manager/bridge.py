"""The only module of the round manager that reaches into the results workflow.

The audit log and the round flow (closing a round, its open matches) live in
the ``scoring`` app today and are moving to ``tournaments``; every other
module of the manager imports them from here, so the move changes these lines
only.
"""

from __future__ import annotations

from scoring.audit import record, snapshot
from scoring.services import close_round, open_matches

__all__ = ["close_round", "open_matches", "record", "snapshot"]
