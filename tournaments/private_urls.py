"""The private pages of an entry, under ``/p/<token>/`` (names start with ``private-``)."""

from django.urls import path

from . import private_views as views

urlpatterns = [
    path("", views.entry_page, name="private-entry"),
]
