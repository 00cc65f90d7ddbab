"""A player's public pages across every tournament: profile, head-to-head, rating history (read by :mod:`tournaments.player_history`)."""
