"""Pages about the players' way in: self-registration, private links, check-in.

Relative to ``/t/<slug>/``; the private pages themselves are under ``/p/<token>/``
(``tournaments.private_urls``, ``scoring.private_urls``).
"""

from django.urls import path

from . import checkin_views, link_views, registration_views

urlpatterns = [
    path("register/", registration_views.register, name="register"),
    path("manage/registrations/", registration_views.manage, name="manage-registrations"),
    path(
        "manage/registrations/options/",
        registration_views.options,
        name="manage-registration-options",
    ),
    path("manage/registrations/open/", registration_views.toggle, name="manage-registration-open"),
    path(
        "manage/registrations/<int:registration_id>/<slug:action>/",
        registration_views.decide,
        name="manage-registration-decide",
    ),
    path("manage/links/", link_views.links, name="manage-links"),
    path("manage/links/<int:entry_id>/reissue/", link_views.reissue, name="manage-link-reissue"),
    path("manage/links/<int:entry_id>/email/", link_views.email, name="manage-link-email"),
    path("manage/check-in/", checkin_views.check_in, name="manage-check-in"),
]
