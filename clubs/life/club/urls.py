"""URLs of the club pages, included by :mod:`tournaments.urls` at ``clubs/``."""

from django.urls import path

from clubs.life.chouette import views as chouette_views
from clubs.life.seasons import views as season_views
from tournaments.notifications import webhook_views

from . import log_views, merge_views
from . import views as club_views

urlpatterns = [
    path("", club_views.club_list, name="club-list"),
    path("<slug:slug>/", club_views.club_detail, name="club-detail"),
    path("<slug:slug>/members/", club_views.members, name="club-members"),
    path("<slug:slug>/members/search/", club_views.members_search, name="club-members-search"),
    path("<slug:slug>/members/import/", club_views.members_import, name="club-members-import"),
    path("<slug:slug>/members/merge/", merge_views.merge_players, name="club-members-merge"),
    path("<slug:slug>/log/", log_views.club_log, name="club-log"),
    path("<slug:slug>/webhooks/", webhook_views.club_webhooks, name="club-webhooks"),
    path("<slug:slug>/chouette/", chouette_views.sessions, name="chouette-list"),
    path("<slug:slug>/chouette/new/", chouette_views.session_new, name="chouette-new"),
    path("<slug:slug>/chouette/<int:pk>/", chouette_views.session_detail, name="chouette-session"),
    path("<slug:slug>/chouette/<int:pk>/undo/", chouette_views.session_undo, name="chouette-undo"),
    path("<slug:slug>/chouette/<int:pk>/export.xlsx", chouette_views.session_export, name="chouette-export"),
    path("<slug:club_slug>/seasons/new/", season_views.season_new, name="season-new"),
    path("<slug:club_slug>/seasons/<slug:season_slug>/edit/", season_views.season_edit, name="season-edit"),
]
