"""The round manager: the thin bridge between the tournament models and the pure generators.

Everything the organiser does to a round goes through here. One module a job:

- :mod:`.systems` — THE table of pairing systems (system → generator, options);
- :mod:`.generate` — the one pairing path (read → pair → write → explain → audit);
- :mod:`.reading` — a round's input from the models (entries, history, lengths);
- :mod:`.writing` — draft rounds written in bulk, explanations stored as data;
- :mod:`.checks` — what blocks the next round; results on a draft;
- :mod:`.edits` — changes by hand (swap, set a pairing);
- :mod:`.lifecycle` — publish, withdraw a publication, delete a draft;
- :mod:`.status` — the tournament's status follows its rounds (one function);
- :mod:`.explanation` — a stored explanation in the reader's language;
- :mod:`.refusals` — :class:`PairingRefused` and the ``pairing.*`` problems;
- :mod:`.withdrawn` — a withdrawn player's remaining matches settled (the settle step the
  result workflow registers, called by the withdrawal and by the pairing of a later stage);
- :mod:`.redraw` — a Swiss draft that seats a player who has just withdrawn, paired again
  without him;

No pairing rule lives here — the generators in :mod:`tournaments.pairing`
decide — so the Swiss, TRF, benchmark and web paths cannot disagree.
"""

from .checks import (
    blockers,
    guard_results,
    hard_blockers,
    matches_with_results,
    unconfirmed_matches,
)
from .edits import check_tables, editable, set_pairing, swap_players
from .explanation import message, messages, names_of
from .generate import audit, generate_next, generate_swiss
from .lifecycle import delete_draft, publish_round, unpublish_round
from .reading import (
    entries_of,
    history,
    knockout_state,
    match_length_for,
    previous_opponents,
    rounds_of,
    swiss_input,
)
from .refusals import PairingRefused
from .status import status_for, update_status
from .systems import SYSTEMS, System, options_of
from .writing import Progress

__all__ = [
    "SYSTEMS",
    "PairingRefused",
    "Progress",
    "System",
    "audit",
    "blockers",
    "check_tables",
    "delete_draft",
    "editable",
    "entries_of",
    "generate_next",
    "generate_swiss",
    "guard_results",
    "hard_blockers",
    "history",
    "knockout_state",
    "match_length_for",
    "matches_with_results",
    "message",
    "messages",
    "names_of",
    "options_of",
    "previous_opponents",
    "publish_round",
    "rounds_of",
    "set_pairing",
    "swap_players",
    "status_for",
    "swiss_input",
    "unconfirmed_matches",
    "unpublish_round",
    "update_status",
]
