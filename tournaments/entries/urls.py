"""The entries desk, the import and the team sheet (names start with "manage-")."""

from django.urls import path

from . import views

urlpatterns = [
    path("entries/", views.entries, name="manage-entries"),
    path("entries/search/", views.search, name="manage-entries-search"),
    path("entries/add/", views.add, name="manage-entries-add"),
    path("entries/new/", views.new_player, name="manage-entries-new"),
    path("entries/import/", views.import_entries, name="manage-entries-import"),
    path("entries/<int:entry_id>/", views.entry_action, name="manage-entry"),
    path("teams/", views.teams, name="manage-teams"),
]
