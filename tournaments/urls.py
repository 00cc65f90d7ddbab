"""URLs of the tournaments app: the home page, a tournament's public and organiser pages.

``/t/<slug>/`` is the tournament's one public overview (URL names ``tournament``
and ``public-overview``); the old ``/t/<slug>/overview/`` address redirects there.
"""

from django.urls import include, path

from . import landing_views, public_views, setup_urls, views

urlpatterns = [
    path("", views.home, name="home"),
    path("me/", landing_views.me, name="me"),
    path("t/<slug:slug>/", public_views.overview, name="tournament"),
    path("t/<slug:slug>/", include("tournaments.public_urls")),
    path("t/<slug:slug>/manage/", include("tournaments.organiser_urls")),
    path("t/<slug:slug>/manage/", include(setup_urls.manage_patterns)),
    path("organise/", include(setup_urls.organise_patterns)),
    path("t/<slug:slug>/manage/", include("tournaments.entries_urls")),
    path("t/<slug:slug>/", include("tournaments.players_urls")),
    path("p/<str:token>/", include("tournaments.private_urls")),
    path("players/", include("tournaments.profile_urls")),
]
