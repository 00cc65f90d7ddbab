"""Our own date formats where Django's defaults do not suit a tournament hall.

Django's English dates are American ("Nov. 27, 2026", "11/27/2026", "1:26 p.m."),
which a reader in Europe or Asia misreads; the English pages use day-month order
and a 24-hour clock, and short dates in ISO 8601 (unambiguous in every country).
"""
