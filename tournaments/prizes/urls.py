"""The organiser's prize table and the desk's fee button, relative to ``/t/<slug>/manage/``."""

from django.urls import path

from . import views

urlpatterns = [
    path("entries/<int:entry_id>/fee/", views.entry_fee, name="manage-entry-fee"),
    path("prizes/", views.prize_table, name="manage-prizes"),
    path("prizes/<int:prize_id>/remove/", views.prize_remove, name="manage-prize-remove"),
]
