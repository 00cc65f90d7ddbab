"""Printables of a tournament under ``/t/<slug>/manage/print/`` (see :mod:`tournaments.public.print_views`)."""

from django.urls import path

from . import print_views as views

urlpatterns = [
    path("", views.index, name="manage-print"),
    path("match/<int:match_id>/sheet/", views.match_sheet, name="print-match-sheet"),
    path("round/<int:round_id>/sheets/", views.round_sheets, name="print-round-sheets"),
    path("round/<int:round_id>/tables/", views.table_cards, name="print-table-cards"),
    path("players/", views.player_cards, name="print-player-cards"),
    path("bracket/", views.bracket_sheet, name="print-bracket"),
]
