"""URLs of the scoring app: each room's URLs, mounted under ``/t/<slug>/``, ``/p/<token>/`` or the root.

Names are prefixed (``referee-``, ``result-``, ``dispute-``, ``record-``, ``desk``…) to stay
unique across apps.
"""

from django.urls import include, path

from .analysis import urls as analysis
from .archive import urls as archive
from .entry import urls as entry
from .live import urls as live
from .records import urls as records

urlpatterns = [
    *records.urlpatterns,
    *analysis.urlpatterns,
    path("t/<slug:slug>/", include(
        entry.tournament_patterns + records.tournament_patterns + archive.tournament_patterns
        + analysis.tournament_patterns + live.tournament_patterns
    )),
    path("p/<str:token>/", include(entry.private_patterns + records.private_patterns + analysis.private_patterns
        + live.private_patterns)),
    *archive.urlpatterns,
]
