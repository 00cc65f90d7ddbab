"""A tournament's webhooks page and the email opt-out page.

``manage/webhooks/`` is relative to ``/t/<slug>/``; a club's webhooks page is a club page
(:mod:`clubs.life.club.urls`).
"""

from django.urls import path

from . import views, webhook_views

tournament_patterns = [
    path("manage/webhooks/", webhook_views.tournament_webhooks, name="manage-webhooks"),
]

urlpatterns = [
    path("notifications/<str:token>/", views.opt_out, name="email-opt-out"),
]
