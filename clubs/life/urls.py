"""URLs of club life, mounted at the site's root by :mod:`zarik.urls`.

``/clubs/…`` the club pages (members, the member import, seasons to edit, the chouette,
the club's webhooks), ``/seasons/<slug>/`` a public season, ``/ratings/`` the rating lists,
``/players/…`` a player's pages across every tournament and the category change.
"""

from django.urls import include, path

from .categories import views as category_views
from .rating_lists import views as rating_list_views
from .seasons import views as season_views

urlpatterns = [
    path("players/<int:player_id>/category/", category_views.change, name="player-category"),
    path("players/<int:player_id>/details/", category_views.details, name="player-details"),
    path("clubs/", include("clubs.life.club.urls")),
    path("seasons/<slug:slug>/", season_views.season_detail, name="season-detail"),
    path("seasons/<slug:slug>/export.xlsx", season_views.season_export, name="season-export"),
    path("ratings/", rating_list_views.rating_list_page, name="rating-list"),
    path("ratings/export.xlsx", rating_list_views.rating_list_export, name="rating-export"),
    path("players/", include("clubs.life.profiles.urls")),
]
