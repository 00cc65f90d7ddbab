"""Seasons: a club's series of events, its standings by place points, the pages to create, edit and read them."""
