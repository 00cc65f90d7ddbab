"""Who may see and do what: the permissions table (role × action), private links' signed tokens, the one rule for draft rounds.

Every page, the API and the admin ask here; nothing else decides access.
"""
