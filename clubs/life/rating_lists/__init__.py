"""The public rating list per pool and its Excel export (the list itself: :mod:`clubs.rating_lists`)."""
