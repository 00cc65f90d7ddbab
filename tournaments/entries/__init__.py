"""Who plays: the entries desk, adding and removing entries (``roster``), check-in and withdrawal (``status``), the CSV/XLSX/TRF import (``importer``), Scheveningen teams.

``problems`` is the ``entry.*`` catalogue.
"""
