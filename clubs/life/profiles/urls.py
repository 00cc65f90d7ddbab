"""A player's public pages across all tournaments, under ``/players/`` (:mod:`clubs.life.profiles.views`)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<int:player_id>/", views.profile, name="player-profile"),
    path("<int:player_id>/vs/<int:other_id>/", views.head_to_head, name="player-h2h"),
    path("<int:player_id>/rating/<slug:pool>/", views.rating_history, name="player-rating-history"),
]
