"""Self-registration: the public form and the organiser's registrations page (under ``/t/<slug>/``)."""

from django.urls import path

from . import views as registration_views

urlpatterns = [
    path("register/", registration_views.register, name="register"),
    path(
        "register/application/<str:token>/",
        registration_views.application,
        name="registration-application",
    ),
    path(
        "register/application/<str:token>/emails/",
        registration_views.application_emails,
        name="registration-emails",
    ),
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
]
