"""Result entry, by pages and by the API: referees, players (also through a private link), the results grid, disputes, discipline, the audit log, the desk.

Every action goes through :mod:`scoring.workflow`.
"""
