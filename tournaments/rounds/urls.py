"""Organiser pages: generate, adjust and publish rounds (all names start with "manage-")."""

from django.urls import path

from . import ruling_views, views
from .swiss import views as swiss_views

urlpatterns = [
    path("", views.rounds, name="manage-rounds"),
    path("generate/", views.generate, name="manage-generate"),
    path("round/<int:round_id>/", views.round_detail, name="manage-round"),
    path("round/<int:round_id>/change/", views.round_change, name="manage-round-change"),
    path("round/<int:round_id>/publish/", views.round_publish, name="manage-round-publish"),
    path("round/<int:round_id>/unpublish/", views.round_unpublish, name="manage-round-unpublish"),
    path("round/<int:round_id>/delete/", views.round_delete, name="manage-round-delete"),
    path("swiss/", swiss_views.swiss_options, name="manage-swiss"),
    path("swiss/forbid/", swiss_views.forbid, name="manage-swiss-forbid"),
    path("swiss/forbid/<int:pair_id>/lift/", swiss_views.allow, name="manage-swiss-allow"),
    path("swiss/bye/", swiss_views.bye, name="manage-swiss-bye"),
    path("swiss/bye/<int:request_id>/cancel/", swiss_views.bye_cancel, name="manage-swiss-bye-cancel"),
    path("swiss/qualify/", swiss_views.qualify, name="manage-swiss-qualify"),
    path("rulings/", ruling_views.rulings, name="manage-rulings"),
    path("rulings/round/<int:round_id>/", ruling_views.ruling_decide, name="manage-ruling-decide"),
    path("task/<str:task_id>/", views.task_progress, name="manage-task"),
    path("task/<str:task_id>/status/", views.task_status, name="manage-task-status"),
]
