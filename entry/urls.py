"""The tables' private links (`/t/<token>/`), reversed as "table:link", and what the table does
there: correct a deal (`deals/<n>/`; the older `games/<n>/` answers the same), confirm another
player's entry, sign the set off.

Included at the site root by config/urls.py; the table API is in `entry/api_urls.py`.
"""

from django.urls import path

from entry import pwa
from entry import views as table_page

app_name = "table"

LINK = "t/<str:token>/"

urlpatterns = [
    path(LINK, table_page.table_link, name="link"),
    path(LINK + "deals/<int:number>/correct", table_page.table_correct, name="correct"),
    path(LINK + "deals/<int:number>/confirm", table_page.table_confirm, name="confirm"),
    path(LINK + "sign-off", table_page.table_sign_off_view, name="sign-off"),
    path(LINK + "call", table_page.table_call, name="call"),
    path(LINK + "time", table_page.table_time, name="time"),
    path(LINK + "live", table_page.table_live, name="live"),
    path(LINK + "parts", table_page.table_parts, name="parts"),
    path(LINK + "check", table_page.table_check, name="check"),
    path(LINK + "manifest.webmanifest", pwa.manifest, name="manifest"),
    path("t/sw.js", pwa.service_worker, name="worker"),
    # The older paths (`games`, Kalooki's word for a deal): bookmarks and queued forms still work.
    path(LINK + "games/<int:number>/correct", table_page.table_correct, name="correct-games"),
    path(LINK + "games/<int:number>/confirm", table_page.table_confirm, name="confirm-games"),
]
