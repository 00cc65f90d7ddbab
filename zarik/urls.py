from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from zarik.help import manual
from zarik.production.health import healthz, live, ready
from zarik.style import style

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/live", live, name="healthz-live"),
    path("healthz/ready", ready, name="healthz-ready"),
    # The user manual, built from docs/ (make docs); no internet needed.
    path("help/", manual, name="help"),
    path("help/<path:path>", manual, name="help-page"),
    path("admin/", admin.site.urls),
    path("style/", style, name="style"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(template_name="account/login.html"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include("zarik.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("clubs.life.urls")),
]
