from django.urls import path

from director import check_in_views
from director import tournament_views as views

urlpatterns = [
    path("director/", views.director_home, name="home"),
    path("director/new", views.tournament_new, name="tournament-new"),
    path("director/<slug:slug>/", views.hub, name="hub"),
    path("director/<slug:slug>/edit", views.tournament_edit, name="tournament-edit"),
    path("director/<slug:slug>/status", views.tournament_status, name="tournament-status"),
    path("director/<slug:slug>/players", views.players, name="players"),
    path("director/<slug:slug>/players/import", views.players_import, name="players-import"),
    path("director/<slug:slug>/players/check-in-all", views.check_in_all, name="check-in-all"),
    path(
        "director/<slug:slug>/players/check-in-window",
        check_in_views.check_in_window,
        name="check-in-window",
    ),
    path(
        "director/<slug:slug>/players/check-in-arrivals",
        check_in_views.check_in_arrivals,
        name="check-in-arrivals",
    ),
    path("director/<slug:slug>/players/<int:entry_id>/team", views.team_edit, name="team-edit"),
    path(
        "director/<slug:slug>/players/<int:entry_id>/refuse-pairing",
        views.pairing_refuse,
        name="pairing-refuse",
    ),
    path(
        "director/<slug:slug>/players/<int:entry_id>/<slug:action>",
        views.entry_action,
        name="entry-action",
    ),
    path("director/<slug:slug>/audit", views.audit, name="audit"),
]
