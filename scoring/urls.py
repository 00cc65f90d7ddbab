"""Result entry, confirmation, disputes, discipline, the audit log and the organiser's desk.

Names are prefixed (``referee-``, ``result-``, ``dispute-``, ``desk``…) to stay
unique across apps; all paths live under ``/t/<slug>/``.
"""

from django.urls import include, path

from . import archive_views, grid_views, record_views, views

# Relative to /t/<slug>/.
tournament_patterns = [
    path("live.json", views.live_json, name="live-json"),
    path("referee/", views.referee_tables, name="referee-tables"),
    path("referee/<int:match_id>/", views.referee_match, name="referee-match"),
    path("my-match/", views.my_match, name="result-mine"),
    path("match/<int:match_id>/", views.match_result, name="result-match"),
    path("match/<int:match_id>/confirm/", views.confirm, name="result-confirm"),
    path("match/<int:match_id>/dispute/", views.dispute, name="result-dispute"),
    path("match/<int:match_id>/record/", record_views.record_viewer, name="record-viewer"),
    path("match/<int:match_id>/record/upload/", record_views.record_upload, name="record-upload"),
    path(
        "match/<int:match_id>/record.<slug:fmt>",
        record_views.record_download,
        name="record-download",
    ),
    path("records/<int:file_id>/", record_views.record_file, name="record-file"),
    path("manage/round/<int:round_id>/records/", record_views.round_records, name="round-records"),
    path(
        "manage/round/<int:round_id>/records/discard/",
        record_views.round_records_discard,
        name="round-records-discard",
    ),
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
    path("manage/archive/", archive_views.download, name="manage-archive"),
    path("desk/", views.desk, name="desk"),
    path("desk/entry/<int:entry_id>/<slug:action>/", views.desk_entry, name="desk-entry"),
    path("desk/match/<int:match_id>/", views.desk_match, name="desk-match"),
    path("desk/round/<int:round_id>/close/", views.desk_round_close, name="desk-round-close"),
]

urlpatterns = [
    path("records/view/", record_views.record_paste, name="record-paste"),
    path("t/<slug:slug>/", include(tournament_patterns)),
    path("p/<str:token>/", include("scoring.private_urls")),
    path("organise/club/<slug:club_slug>/restore/", archive_views.restore, name="organise-restore"),
]
