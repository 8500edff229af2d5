"""Root URLs: the admin, sign-in, /healthz, the API and its OpenAPI schema, and each app's pages."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import healthz
from config.i18n import JavaScriptCatalog
from config.signin import SignInView
from director.tournament_api import AuthTokenApi

handler404 = "config.api.page_not_found"  # JSON under /api/, HTML elsewhere
# Swagger UI comes from this site (drf-spectacular-sidecar) and its set-up script from this view
# (the split view: no inline script); Swagger UI sets a few inline styles, allowed on this page.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """The site's icon where a browser looks for it unasked (the admin, the API docs): the
    pages name theirs in `base.html`."""
    return HttpResponsePermanentRedirect(static("img/favicon.ico"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", healthz, name="healthz"),
    path("api/auth/token", AuthTokenApi.as_view(), name="api-token"),
    path("api/", include("director.api_urls")),
    path("api/", include("entry.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the pages' language switch
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),  # the scripts' words
    path("", include("hall.urls")),  # the public pages: most of the traffic
    path("", include("entry.urls")),  # the tables' private links
    path("", include("director.urls")),
]
