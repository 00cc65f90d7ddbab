"""The shell around the ratings core (:mod:`clubs.ratings`): confirmed results in, ratings and their history stored, and the tasks that do it after each commit."""
