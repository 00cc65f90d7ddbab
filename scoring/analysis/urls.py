"""Analysis pages: ``tournament_patterns`` under ``/t/<slug>/``, ``private_patterns`` under
``/p/<token>/`` (a player's private link), ``urlpatterns`` at the root."""

from django.urls import path

from . import views

tournament_patterns = [
    path("match/<int:match_id>/analysis/", views.match_analysis, name="analysis-match"),
    path("match/<int:match_id>/analysis/run/", views.match_analysis_run, name="analysis-match-run"),
    path("analysis/", views.pr_table, name="analysis-table"),
    path("manage/analysis/", views.analysis_settings, name="analysis-settings"),
    path("manage/round/<int:round_id>/analysis/", views.round_analyse, name="analysis-round"),
]

private_patterns = [
    path("match/<int:match_id>/analysis/", views.private_match_analysis, name="private-analysis-match"),
]

urlpatterns = [
    path("players/<int:player_id>/pr-visibility/", views.pr_visibility, name="analysis-visibility"),
]
