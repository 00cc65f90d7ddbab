"""Result entry, confirmation, disputes, discipline, the audit log and the organiser's desk.

Names are prefixed (``referee-``, ``result-``, ``dispute-``, ``desk``…) to stay
unique across apps; all paths live under ``/t/<slug>/``.
"""

from django.urls import path

from . import views

urlpatterns = [
    path("t/<slug:slug>/live.json", views.live_json, name="live-json"),
    path("t/<slug:slug>/referee/", views.referee_tables, name="referee-tables"),
    path("t/<slug:slug>/referee/<int:match_id>/", views.referee_match, name="referee-match"),
    path("t/<slug:slug>/my-match/", views.my_match, name="result-mine"),
    path("t/<slug:slug>/match/<int:match_id>/", views.match_result, name="result-match"),
    path("t/<slug:slug>/match/<int:match_id>/confirm/", views.confirm, name="result-confirm"),
    path("t/<slug:slug>/match/<int:match_id>/dispute/", views.dispute, name="result-dispute"),
    path("t/<slug:slug>/disputes/", views.dispute_list, name="dispute-list"),
    path("t/<slug:slug>/disputes/<int:dispute_id>/", views.dispute_detail, name="dispute-detail"),
    path("t/<slug:slug>/disputes/<int:dispute_id>/rule/", views.dispute_rule, name="dispute-rule"),
    path(
        "t/<slug:slug>/disputes/<int:dispute_id>/appeal/",
        views.dispute_appeal,
        name="dispute-appeal",
    ),
    path(
        "t/<slug:slug>/disputes/<int:dispute_id>/decide/",
        views.dispute_decide,
        name="dispute-decide",
    ),
    path("t/<slug:slug>/sanctions/", views.sanction_list, name="sanction-list"),
    path("t/<slug:slug>/audit/", views.audit_log, name="audit-log"),
    path("t/<slug:slug>/desk/", views.desk, name="desk"),
    path(
        "t/<slug:slug>/desk/entry/<int:entry_id>/<slug:action>/",
        views.desk_entry,
        name="desk-entry",
    ),
    path(
        "t/<slug:slug>/desk/round/<int:round_id>/close/",
        views.desk_round_close,
        name="desk-round-close",
    ),
]
