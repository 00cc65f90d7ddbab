"""Public pages of a released tournament: pairings, standings, crosstable, players, bracket."""

urlpatterns: list = []
