"""The private pages of an entry, under ``/p/<token>/`` (names start with ``private-``).

Reporting and confirming results through the link lives in ``scoring.entry.urls`` and ``scoring.records.urls``
(the result workflow is the scoring app's), under the same prefix.
"""

from django.urls import path

from . import private_views as views

urlpatterns = [
    path("", views.entry_page, name="private-entry"),
    path("check-in/", views.check_in, name="private-check-in"),
    path("check-in/undo/", views.undo_check_in, name="private-check-in-undo"),
    path("draw/", views.draw, name="private-draw"),
    path("notifications/", views.notifications, name="private-notifications"),
    path("bye/", views.request_bye, name="private-bye"),
    path("bye/<int:request_id>/cancel/", views.cancel_bye, name="private-bye-cancel"),
]
