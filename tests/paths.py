"""Where the tests find the project and their data, wherever a test module sits in ``tests/<room>/``."""

from pathlib import Path

#: The checkout's root (``manage.py``, ``templates/``, ``locale/``).
ROOT = Path(__file__).resolve().parent.parent
#: Shared test data: game records, match files, import sheets.
DATA = ROOT / "tests" / "data"
