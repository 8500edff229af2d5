"""The director's API (and the open rules API): tournaments, entries and players
(`tournament_api_urls`), rounds, seating, rulings and the rules checks (`round_api_urls`)."""

from django.urls import path

from director import club_api, round_api_urls, tournament_api_urls

CLUB = "clubs/<slug:club>/"
club_urlpatterns = [
    path("clubs", club_api.ClubListApi.as_view(), name="clubs"),
    path(CLUB + "members", club_api.MemberListApi.as_view(), name="club-members"),
    path(CLUB + "members/import", club_api.MemberImportApi.as_view(), name="club-members-import"),
    path(CLUB + "members/<int:member_id>", club_api.MemberApi.as_view(), name="club-member"),
    path(
        CLUB + "members/<int:member_id>/merge",
        club_api.MemberMergeApi.as_view(),
        name="club-member-merge",
    ),
    path(
        CLUB + "members/<int:member_id>/erase",
        club_api.MemberEraseApi.as_view(),
        name="club-member-erase",
    ),
    path(CLUB + "seasons", club_api.SeasonListApi.as_view(), name="club-seasons"),
    path(CLUB + "seasons/<slug:season>", club_api.SeasonApi.as_view(), name="club-season"),
    path(
        CLUB + "seasons/<slug:season>/events",
        club_api.SeasonEventsApi.as_view(),
        name="club-season-events",
    ),
]
urlpatterns = [
    *tournament_api_urls.urlpatterns,
    *round_api_urls.urlpatterns,
    *club_urlpatterns,
]
