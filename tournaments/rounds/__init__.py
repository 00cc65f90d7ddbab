"""Rounds: generate (now or as a background job), change a draft by hand, publish, close; the director's Swiss options and rulings.

``pairing_manager`` is the one path from models to the pure pairing core (:mod:`tournaments.pairing`).
"""
