"""Live board URLs: ``tournament_patterns`` under ``/t/<slug>/``, ``private_patterns`` under ``/p/<token>/``."""

from django.urls import path

from . import views

tournament_patterns = [
    path("match/<int:match_id>/live/", views.live_page, name="live-match"),
    path("match/<int:match_id>/live/board/", views.board, name="live-board"),
    path("match/<int:match_id>/live/state.json", views.state_json, name="live-state"),
    path("match/<int:match_id>/live/record/", views.recorder, name="live-record"),
    path("match/<int:match_id>/live/step/", views.step, name="live-step"),
    path("match/<int:match_id>/live/appoint/", views.appoint, name="live-appoint"),
    path("live/feature/", views.feature, name="live-feature"),
]

private_patterns = [
    path("match/<int:match_id>/live/", views.private_recorder, name="private-live"),
    path("match/<int:match_id>/live/step/", views.private_step, name="private-live-step"),
]
