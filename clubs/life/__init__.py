"""Club life: the pages of clubs, seasons, players' profiles, rating lists, categories and the chouette.

A page layer above the apps: it reads tournaments and results, and nothing in ``tournaments`` or
``scoring`` imports it (``pyproject.toml``'s contracts say so). :mod:`zarik.urls` mounts
:mod:`clubs.life.urls`.
"""
