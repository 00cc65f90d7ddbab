"""Two stored players are one person: the merge (entries, memberships, categories, account, ratings).

The matching that finds such pairs is ``clubs.identity`` (below this app); this room
moves everything the tournaments app and the clubs app hold about a person onto
the player kept, recomputes the rating pools they played in, and audits it.
"""
