"""Root URLs: the admin, sign-in, /healthz, the API and its OpenAPI schema, and each app's pages."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz
from tournament.api import AuthTokenApi

handler404 = "config.api.page_not_found"  # JSON under /api/, HTML elsewhere
# Swagger UI's script, styles and images come from its CDN, and it sets a few inline styles:
# allowed on this page only (with no internet, as at a venue, the docs page does not load).
SWAGGER_CDN = "https://cdn.jsdelivr.net"
api_docs = csp_update(
    {
        "script-src": [SWAGGER_CDN],
        "style-src": [SWAGGER_CDN, UNSAFE_INLINE],
        "img-src": [SWAGGER_CDN],
    }
)(SpectacularSwaggerView.as_view(url_name="api-schema"))

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", healthz, name="healthz"),
    path("api/auth/token", AuthTokenApi.as_view(), name="api-token"),
    path("api/", include("scoring.api_urls")),
    path("api/", include("tables.api_urls")),
    path("api/", include("tournament.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("", include("scoring.leaderboard_urls")),  # the public pages: most of the traffic
    path("", include("scoring.public_urls")),
    path("", include("scoring.urls")),
    path("", include("tables.urls")),
    path("", include("tournament.urls")),
]
