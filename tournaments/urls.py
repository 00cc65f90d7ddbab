"""URLs of the tournaments app: the home page, a tournament's public and organiser pages.

``/t/<slug>/`` is the tournament's one public overview (URL names ``tournament``
and ``public-overview``); the old ``/t/<slug>/overview/`` address redirects there.
"""

from django.urls import include, path

from . import (
    category_views,
    landing_views,
    notification_views,
    public_views,
    rating_list_views,
    season_views,
    setup_urls,
    token_views,
    views,
)

urlpatterns = [
    path("", views.home, name="home"),
    path("me/", landing_views.me, name="me"),
    path("account/tokens/", token_views.token_list, name="account-tokens"),
    path("account/tokens/<int:token_id>/revoke/", token_views.token_revoke, name="account-token-revoke"),
    path("t/<slug:slug>/", public_views.overview, name="tournament"),
    path("t/<slug:slug>/", include("tournaments.public_urls")),
    path("t/<slug:slug>/manage/", include("tournaments.organiser_urls")),
    path("t/<slug:slug>/manage/", include(setup_urls.manage_patterns)),
    path("organise/", include(setup_urls.organise_patterns)),
    path("t/<slug:slug>/manage/", include("tournaments.entries_urls")),
    path("t/<slug:slug>/", include("tournaments.players_urls")),
    path("p/<str:token>/", include("tournaments.private_urls")),
    path("notifications/<str:token>/", notification_views.opt_out, name="email-opt-out"),
    path("players/<int:player_id>/category/", category_views.change, name="player-category"),
    path("clubs/", include("tournaments.club_urls")),
    path("seasons/<slug:slug>/", season_views.season_detail, name="season-detail"),
    path("seasons/<slug:slug>/export.xlsx", season_views.season_export, name="season-export"),
    path("ratings/", rating_list_views.rating_list_page, name="rating-list"),
    path("ratings/export.xlsx", rating_list_views.rating_list_export, name="rating-export"),
    path("players/", include("tournaments.profile_urls")),
]
