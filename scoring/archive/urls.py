"""The archive buttons: a tournament's download (under ``/t/<slug>/``) and a club's restore page."""

from django.urls import path

from . import views

tournament_patterns = [
    path("manage/archive/", views.download, name="manage-archive"),
]

urlpatterns = [
    path("organise/club/<slug:club_slug>/restore/", views.restore, name="organise-restore"),
]
