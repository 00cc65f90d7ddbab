"""What the public sees: overview, pairings, standings, crosstables, players, the bracket; the hall display; the printables.

``frame`` is the frame every public page shares (cached fragments around a kept page).
"""
