"""The table API: a table's link, its scorekeepers and its directors (`scorekeeper/api.py`).

A deal's paths say `deals/{n}`; the older `games/{n}` (Kalooki's word) answers the same, marked
deprecated in the schema, for the tools and the phones' queued writes that still use it.
"""

from django.urls import path

from scorekeeper import api as table_api

TABLE = "tables/<int:pk>"
urlpatterns = [
    path(TABLE, table_api.TableDetailApi.as_view(), name="api-table"),
    path(
        TABLE + "/deals/<int:number>/result",
        table_api.TableResultApi.as_view(),
        name="api-table-result",
    ),
    path(
        TABLE + "/deals/<int:number>/confirm",
        table_api.TableConfirmApi.as_view(),
        name="api-table-confirm",
    ),
    path(TABLE + "/sign-off", table_api.TableSignOffApi.as_view(), name="api-table-sign-off"),
    path(
        TABLE + "/games/<int:number>/result",
        table_api.TableResultGamesApi.as_view(),
        name="api-table-result-games",
    ),
    path(
        TABLE + "/games/<int:number>/confirm",
        table_api.TableConfirmGamesApi.as_view(),
        name="api-table-confirm-games",
    ),
]
