"""Match analysis: every backgammon match's record analysed by GNU Backgammon, as PR.

- :mod:`.engine` runs gnubg as a separate program (files in a temporary folder, one core,
  a time limit, killed on timeout) — no GPL code is linked or imported;
- :mod:`.report` (pure) turns its dump into per player, game and match statistics and the
  worst decisions (PR = 500 × error / decisions, checked against gnubg's own error rate);
- :mod:`.models` keep one analysis per match (queued, running, done, failed with a reason),
  the event's settings (depth, public PR) and a player's choice to show their PR;
- :mod:`.services` queue, claim fairly across events, run, re-run (audited) and read PR
  tables and histories; :mod:`.tasks` is the Celery side;
- pages (:mod:`.views`), the API (:mod:`.api`) and the viewer's strip (:mod:`.templatetags`).
"""
