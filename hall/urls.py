"""The public pages of a published tournament (`/p/<slug>/...`), its CSV exports and the
standings API, reversed as "hall:...".

Included at the site root by config/urls.py, with the site's front page (`/`, "hall:index").
"""

from django.urls import path

from hall import api as public_api
from hall import club_views, phone_api, views
from hall import phone_views as phone
from hall import seating_views as hall_views

app_name = "hall"

PUBLIC = "p/<slug:slug>/"

urlpatterns = [
    path("", views.index, name="index"),
    path(PUBLIC, views.tournament_home, name="home"),
    path(PUBLIC + "leaderboard", views.leaderboard, name="leaderboard"),
    path(PUBLIC + "leaderboard/rows", views.leaderboard_rows, name="leaderboard-rows"),
    path(PUBLIC + "leaderboard/players", views.partner_standings, name="partners"),
    path(PUBLIC + "projector", views.projector, name="projector"),
    path(PUBLIC + "pulse", views.pulse, name="pulse"),
    path(PUBLIC + "tables/<int:round>/<int:table>/pulse", views.pulse, name="table-pulse"),
    path(PUBLIC + "players/<int:entry_id>/pulse", views.pulse, name="player-pulse"),
    path(PUBLIC + "seating", hall_views.seating_board, name="seating"),
    path(PUBLIC + "seating/projector", hall_views.seating_projector, name="seating-projector"),
    path(PUBLIC + "tables/<int:round>/<int:table>", views.table_page, name="table"),
    path(PUBLIC + "players/<int:entry_id>", views.player_page, name="player"),
    path(PUBLIC + "check-in", phone.check_in_page, name="check-in"),
    path(PUBLIC + "check-in/<int:entry_id>", phone.check_in_entry, name="check-in-entry"),
    path(PUBLIC + "check-in/poster", phone.check_in_poster, name="check-in-poster"),
    path(PUBLIC + "me", phone.my_page_here, name="my-page-here"),
    path("me/<str:token>", phone.my_page, name="my-page"),
    path(PUBLIC + "results.csv", public_api.results_csv, name="results-csv"),
    path(PUBLIC + "games.csv", public_api.games_csv, name="games-csv"),
    path("api/me/<str:token>", phone_api.MyPageApi.as_view(), name="api-my-page"),
    path("c/<slug:club>/seasons/<slug:season>", club_views.season_page, name="season"),
    path("c/<slug:club>/seasons/<slug:season>.csv", club_views.season_csv, name="season-csv"),
    path("c/<slug:club>/ratings/<slug:game>", club_views.ratings_page, name="ratings"),
    path("c/<slug:club>/members/<int:member_id>", club_views.member_page, name="member"),
    path(
        "api/clubs/<slug:club>/seasons/<slug:season>/table",
        club_views.SeasonApi.as_view(),
        name="api-season",
    ),
    path(
        "api/clubs/<slug:club>/ratings/<slug:game>",
        club_views.RatingsApi.as_view(),
        name="api-ratings",
    ),
    path(
        "api/clubs/<slug:club>/members/<int:member_id>/history",
        club_views.MemberHistoryApi.as_view(),
        name="api-member-history",
    ),
    path(
        "api/tournaments/<slug:slug>/standings",
        public_api.StandingsApi.as_view(),
        name="api-standings",
    ),
]
