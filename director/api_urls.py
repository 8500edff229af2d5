"""The director's API (and the open rules API): tournaments, entries and players
(`tournament_api_urls`), rounds, seating, rulings and the rules checks (`round_api_urls`)."""

from director import round_api_urls, tournament_api_urls

urlpatterns = [*tournament_api_urls.urlpatterns, *round_api_urls.urlpatterns]
