"""The tables' private links (`/t/<token>/`), reversed as "table:link".

Included at the site root by config/urls.py: `path("", include("scoring.public_urls"))`.
"""

from django.urls import path

from scoring import table_page

app_name = "table"

urlpatterns = [
    path("t/<str:token>/", table_page.table_link, name="link"),
]
