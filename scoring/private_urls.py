"""Result actions through an entry's private link, under ``/p/<token>/`` (names ``private-…``)."""

from django.urls import path

from . import private_views as views
from . import record_views

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="private-match"),
    path("match/<int:match_id>/confirm/", views.confirm, name="private-confirm"),
    path("match/<int:match_id>/dispute/", views.dispute, name="private-dispute"),
    path("match/<int:match_id>/record/", record_views.private_viewer, name="private-record-viewer"),
    path("match/<int:match_id>/record/upload/", record_views.private_upload, name="private-record-upload"),
    path(
        "match/<int:match_id>/record.<slug:fmt>",
        record_views.private_download,
        name="private-record-download",
    ),
    path("records/<int:file_id>/", record_views.private_file, name="private-record-file"),
]
