"""Public pages of a released tournament: pairings, standings, crosstable, players, bracket.

Included under ``/t/<slug>/``; every name starts with ``public-``.
"""

from django.urls import path

from . import public_views as views

urlpatterns = [
    path("overview/", views.overview, name="public-overview"),
    path("pairings/", views.pairings, name="public-pairings"),
    path("pairings/print/", views.pairings_print, name="public-pairings-print"),
    path("standings/", views.standings, name="public-standings"),
    path("standings/print/", views.standings_print, name="public-standings-print"),
    path("crosstable/", views.crosstable, name="public-crosstable"),
    path("crosstable/rounds/", views.crosstable_rounds, name="public-crosstable-rounds"),
    path("player/<int:entry_id>/", views.player, name="public-player"),
    path("bracket/", views.bracket, name="public-bracket"),
    path("export/", views.export_start, name="public-export"),
    path("export/<uuid:job>/", views.export_progress, name="public-export-progress"),
    path("export/<uuid:job>/status/", views.export_status, name="public-export-status"),
    path("export/<uuid:job>/download/", views.export_download, name="public-export-download"),
]
