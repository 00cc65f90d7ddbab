"""THE RATINGS CORE — pure Python, no Django: FIBS ratings per variant pool.

Ratings are a pure function of the confirmed results in order, so anyone can
reproduce them from the published results (what national federations require).
The shell (``tournaments.ratings.service``) feeds confirmed matches in and
stores what comes out; nothing here knows about models or requests.
"""
