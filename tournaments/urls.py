"""URLs of the tournaments app: the home page, a tournament's public and organiser pages.

Each room owns its URLs; this module only mounts them. ``/t/<slug>/`` is the
tournament's one public overview (URL names ``tournament`` and ``public-overview``);
the old ``/t/<slug>/overview/`` address redirects there. Club life (clubs, seasons,
rating lists, players' pages) is mounted by :mod:`zarik.urls` from :mod:`clubs.life.urls`.
"""

from django.urls import include, path

from .api import token_views
from .links import landing_views
from .notifications import urls as notification_urls
from .public import home_views
from .public import views as public_views
from .setup import urls as setup_urls

urlpatterns = [
    path("", home_views.home, name="home"),
    path("me/", landing_views.me, name="me"),
    path("", include("tournaments.account.urls")),
    path("account/tokens/", token_views.token_list, name="account-tokens"),
    path("account/tokens/<int:token_id>/revoke/", token_views.token_revoke, name="account-token-revoke"),
    path("t/<slug:slug>/", public_views.overview, name="tournament"),
    path("t/<slug:slug>/", include("tournaments.public.urls")),
    path("t/<slug:slug>/", include("tournaments.draw.urls")),
    path("t/<slug:slug>/", include(notification_urls.tournament_patterns)),
    path("t/<slug:slug>/manage/", include("tournaments.rounds.urls")),
    path("t/<slug:slug>/manage/print/", include("tournaments.public.print_urls")),
    path("t/<slug:slug>/manage/", include(setup_urls.manage_patterns)),
    path("organise/", include(setup_urls.organise_patterns)),
    path("t/<slug:slug>/manage/", include("tournaments.entries.urls")),
    path("t/<slug:slug>/manage/", include("tournaments.prizes.urls")),
    path("t/<slug:slug>/", include("tournaments.registration.urls")),
    path("t/<slug:slug>/", include("tournaments.links.urls")),
    path("p/<str:token>/", include("tournaments.links.private_urls")),
    path("", include(notification_urls)),
]
