"""English (non-US) date formats: day before month, 24-hour clock, ISO short dates.

See :mod:`zarik.formats`. The syntax is Django's ``date`` filter's.
"""

DATE_FORMAT = "j F Y"  # 27 November 2026
DATETIME_FORMAT = "j F Y, H:i"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y-m-d"  # ISO 8601: no day/month confusion
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d %B %Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d.%m.%Y %H:%M", "%d/%m/%Y %H:%M",
]
