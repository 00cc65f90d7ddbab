"""The chouette (book ch. 10–11 «Швец»): a club's sessions, the ledger from the database, game entry.

The rules are the pure :mod:`scoring.rules.chouette`; the models are :class:`clubs.models.ChouetteSession` and ``ChouetteGame``.
"""
