"""Self-registration: the public form, the organiser's decisions, the waiting list.

``services`` holds every action (apply, approve, refuse, cancel), ``problems`` the ``registration.*`` catalogue.
"""
