"""The director's Swiss options (``manage/swiss/``): forbidden pairs, requested byes, qualifying to a cup.

``requests`` holds the actions (audited), ``forms`` and ``views`` the page; the API calls the same actions.
"""
