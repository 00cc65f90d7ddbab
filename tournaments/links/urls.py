"""The organiser's private links page and the desk's bulk check-in, relative to ``/t/<slug>/``.

An entry's own private pages are under ``/p/<token>/`` (:mod:`tournaments.links.private_urls`).
"""

from django.urls import path

from . import checkin_views
from . import views as link_views

urlpatterns = [
    path("manage/links/", link_views.links, name="manage-links"),
    path("manage/links/<int:entry_id>/reissue/", link_views.reissue, name="manage-link-reissue"),
    path("manage/links/<int:entry_id>/email/", link_views.email, name="manage-link-email"),
    path("manage/links/<int:entry_id>/qr.svg", link_views.qr, name="manage-link-qr"),
    path("manage/links/email-all/", link_views.email_all, name="manage-links-email-all"),
    path("manage/check-in/", checkin_views.check_in, name="manage-check-in"),
]
