"""The open draw of numbers: the director's page under ``manage/draw/`` and the public check.

Relative to ``/t/<slug>/``.
"""

from django.urls import path

from . import views

urlpatterns = [
    path("draw/", views.public, name="public-draw"),
    path("manage/draw/", views.manage, name="manage-draw"),
    path("manage/draw/commit/", views.commit, name="manage-draw-commit"),
    path("manage/draw/perform/", views.perform, name="manage-draw-perform"),
]
