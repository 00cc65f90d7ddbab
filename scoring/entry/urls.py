"""Result entry pages: referees, players, disputes, discipline, the audit log, the desk, the grid.

``tournament_patterns`` are relative to ``/t/<slug>/``, ``private_patterns`` to an entry's
private link ``/p/<token>/`` (names ``private-…``).
"""

from django.urls import path

from . import grid_views, private_views, views

tournament_patterns = [
    path("live.json", views.live_json, name="live-json"),
    path("referee/", views.referee_tables, name="referee-tables"),
    path("referee/<int:match_id>/", views.referee_match, name="referee-match"),
    path("my-match/", views.my_match, name="result-mine"),
    path("match/<int:match_id>/", views.match_result, name="result-match"),
    path("match/<int:match_id>/confirm/", views.confirm, name="result-confirm"),
    path("match/<int:match_id>/dispute/", views.dispute, name="result-dispute"),
    path("match/<int:match_id>/appeal/", views.appeal, name="result-appeal"),
    path("disputes/", views.dispute_list, name="dispute-list"),
    path("disputes/<int:dispute_id>/", views.dispute_detail, name="dispute-detail"),
    path("disputes/<int:dispute_id>/rule/", views.dispute_rule, name="dispute-rule"),
    path("disputes/<int:dispute_id>/appeal/", views.dispute_appeal, name="dispute-appeal"),
    path("disputes/<int:dispute_id>/decide/", views.dispute_decide, name="dispute-decide"),
    path("sanctions/", views.sanction_list, name="sanction-list"),
    path("audit/", views.audit_log, name="audit-log"),
    path(
        "manage/round/<int:round_id>/results/", grid_views.results_grid, name="manage-results"
    ),
    path("desk/", views.desk, name="desk"),
    path("desk/entry/<int:entry_id>/<slug:action>/", views.desk_entry, name="desk-entry"),
    path("desk/match/<int:match_id>/", views.desk_match, name="desk-match"),
    path("desk/round/<int:round_id>/close/", views.desk_round_close, name="desk-round-close"),
]

private_patterns = [
    path("match/<int:match_id>/", private_views.match_page, name="private-match"),
    path("match/<int:match_id>/confirm/", private_views.confirm, name="private-confirm"),
    path("match/<int:match_id>/dispute/", private_views.dispute, name="private-dispute"),
    path("match/<int:match_id>/appeal/", private_views.appeal, name="private-appeal"),
]
