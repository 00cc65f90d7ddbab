"""Record pages: the viewer, match files up and down, a file's decision page, a round's bulk upload.

``tournament_patterns`` are relative to ``/t/<slug>/``, ``private_patterns`` to ``/p/<token>/``;
``urlpatterns`` holds the site-wide paste page ``/records/view/``.
"""

from django.urls import path

from . import views

urlpatterns = [
    path("records/view/", views.record_paste, name="record-paste"),
]

tournament_patterns = [
    path("match/<int:match_id>/record/", views.record_viewer, name="record-viewer"),
    path("match/<int:match_id>/record/upload/", views.record_upload, name="record-upload"),
    path(
        "match/<int:match_id>/record.<slug:fmt>",
        views.record_download,
        name="record-download",
    ),
    path("records/<int:file_id>/", views.record_file, name="record-file"),
    path("manage/round/<int:round_id>/records/", views.round_records, name="round-records"),
    path(
        "manage/round/<int:round_id>/records/discard/",
        views.round_records_discard,
        name="round-records-discard",
    ),
]

private_patterns = [
    path("match/<int:match_id>/record/", views.private_viewer, name="private-record-viewer"),
    path("match/<int:match_id>/record/upload/", views.private_upload, name="private-record-upload"),
    path("match/<int:match_id>/record.<slug:fmt>", views.private_download, name="private-record-download"),
    path("records/<int:file_id>/", views.private_file, name="private-record-file"),
]
