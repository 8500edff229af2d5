"""The tables' private links (`/t/<token>/`), reversed as "scorekeeper:link", and what the table
does there: correct a deal (`deals/<n>/`; the older `games/<n>/` answers the same), confirm another
player's entry, sign the set off.

Included at the site root by config/urls.py; the table API is in `scorekeeper/api_urls.py`.
"""

from django.urls import path

from scorekeeper import pwa, views

app_name = "scorekeeper"

LINK = "t/<str:token>/"

urlpatterns = [
    path(LINK, views.table_link, name="link"),
    path(LINK + "deals/<int:number>/correct", views.table_correct, name="correct"),
    path(LINK + "deals/<int:number>/confirm", views.table_confirm, name="confirm"),
    path(LINK + "sign-off", views.table_sign_off_view, name="sign-off"),
    path(LINK + "call", views.table_call, name="call"),
    path(LINK + "time", views.table_time, name="time"),
    path(LINK + "live", views.table_live, name="live"),
    path(LINK + "parts", views.table_parts, name="parts"),
    path(LINK + "check", views.table_check, name="check"),
    path(LINK + "manifest.webmanifest", pwa.manifest, name="manifest"),
    path("t/sw.js", pwa.service_worker, name="worker"),
    # The older paths (`games`, Kalooki's word for a deal): bookmarks and queued forms still work.
    path(LINK + "games/<int:number>/correct", views.table_correct, name="correct-games"),
    path(LINK + "games/<int:number>/confirm", views.table_confirm, name="confirm-games"),
]
