"""URLs of the tournaments app: the basic pages here, public and organiser pages included."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/", include("tournaments.public_urls")),
    path("t/<slug:slug>/manage/", include("tournaments.organiser_urls")),
]
