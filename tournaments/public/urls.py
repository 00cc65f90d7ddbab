"""Public pages of a released tournament: pairings, standings, crosstable, players, bracket, the hall display, the Excel export.

Included under ``/t/<slug>/``; every name starts with ``public-``. The overview
is ``/t/<slug>/`` itself (also named ``tournament`` in :mod:`tournaments.urls`).
"""

from django.urls import path
from django.views.generic import RedirectView

from . import export_views, hall_settings_views, hall_views, views

urlpatterns = [
    path("", views.overview, name="public-overview"),
    path("overview/", RedirectView.as_view(pattern_name="tournament", permanent=True)),
    path("pairings/", views.pairings, name="public-pairings"),
    path("pairings/print/", views.pairings_print, name="public-pairings-print"),
    path("standings/", views.standings, name="public-standings"),
    path("standings/print/", views.standings_print, name="public-standings-print"),
    path("crosstable/", views.crosstable, name="public-crosstable"),
    path("crosstable/rounds/", views.crosstable_rounds, name="public-crosstable-rounds"),
    path("player/<int:entry_id>/", views.player, name="public-player"),
    path("bracket/", views.bracket, name="public-bracket"),
    path("hall/", hall_views.hall, name="hall"),
    path("hall/frame/", hall_views.hall_frame, name="hall-frame"),
    path("manage/hall/", hall_settings_views.hall_settings, name="manage-hall"),
    path("export/", export_views.export_start, name="public-export"),
    path("export/<uuid:job>/", export_views.export_progress, name="public-export-progress"),
    path("export/<uuid:job>/status/", export_views.export_status, name="public-export-status"),
    path("export/<uuid:job>/download/", export_views.export_download, name="public-export-download"),
]
