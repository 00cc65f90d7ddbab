"""An account's own page: the name people see when the account acts (see :mod:`tournaments.account.people`)."""
