"""Club pages: the list of clubs, a club's page, its members and the member import."""
