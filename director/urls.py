"""The director's pages, reversed as "director:...": the tournaments, set-up and players
(`tournament_urls`), the rounds, dashboard, control room, rulings and Rule check (`round_urls`),
and printing (`print_urls`)."""

from django.urls import path

from director import club_views, print_urls, round_urls, tournament_urls

app_name = "director"

urlpatterns = [
    path("director/clubs/<slug:club>/members", club_views.members, name="club-members"),
    *tournament_urls.urlpatterns,
    *round_urls.urlpatterns,
    *print_urls.urlpatterns,
]
