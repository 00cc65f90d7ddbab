"""URLs of the setup pages: ``/organise/…`` (clubs, the wizard) and ``/t/<slug>/manage/…`` (settings).

Two lists, included by :mod:`tournaments.urls` at their two prefixes.
"""

from django.urls import path

from . import views

organise_patterns = [
    path("", views.organise, name="organise"),
    path("club/<slug:club_slug>/", views.club, name="organise-club"),
    path("club/<slug:club_slug>/remove/<int:role_id>/", views.club_remove, name="organise-club-remove"),
    path("new/", views.new, name="organise-new"),
    path("new/tiebreak-preview/", views.new_preview, name="organise-tiebreak-preview"),
]

manage_patterns = [
    path("settings/", views.settings, name="manage-settings"),
    path("settings/tiebreak-preview/", views.settings_preview, name="manage-tiebreak-preview"),
    path("sections/", views.sections, name="manage-sections"),
    path("officials/", views.officials, name="manage-officials"),
    path("officials/<int:official_id>/remove/", views.official_remove, name="manage-official-remove"),
]
