"""The site's URLs plus the public pages', until config/urls.py includes them itself.

The public pages come first: they take most of the site's requests (a crowd refreshing the
leaderboard), and no other pattern matches their addresses.
"""

from django.urls import include, path

from config.urls import urlpatterns as site
from hall.urls import app_name as hall

urlpatterns = list(site)
if not any(getattr(pattern, "namespace", None) == hall for pattern in site):
    urlpatterns.insert(0, path("", include("scoring.leaderboard_urls")))
