"""Result actions through an entry's private link, under ``/p/<token>/`` (names ``private-…``)."""

from django.urls import path

from . import private_views as views

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="private-match"),
    path("match/<int:match_id>/confirm/", views.confirm, name="private-confirm"),
    path("match/<int:match_id>/dispute/", views.dispute, name="private-dispute"),
]
