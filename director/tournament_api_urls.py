from django.urls import path

from director import check_in_api
from director import tournament_api as api

ENTRY = "tournaments/<slug:slug>/entries/<int:entry_id>"

urlpatterns = [
    path("tournaments", api.TournamentListApi.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>", api.TournamentDetailApi.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/entries", api.EntryListApi.as_view(), name="entries"),
    path(
        "tournaments/<slug:slug>/entries/check-in-all",
        api.CheckInAllApi.as_view(),
        name="entries-check-in-all",
    ),
    path(
        "tournaments/<slug:slug>/check-in",
        check_in_api.CheckInWindowApi.as_view(),
        name="check-in-window",
    ),
    path(
        "tournaments/<slug:slug>/check-in/open",
        check_in_api.CheckInWindowOpenApi.as_view(),
        name="check-in-window-open",
    ),
    path(
        "tournaments/<slug:slug>/check-in/close",
        check_in_api.CheckInWindowCloseApi.as_view(),
        name="check-in-window-close",
    ),
    path("tournaments/<slug:slug>/players", api.PlayerAddApi.as_view(), name="players-add"),
    path("tournaments/<slug:slug>/teams", api.TeamAddApi.as_view(), name="teams-add"),
    path(
        "tournaments/<slug:slug>/teams/<int:entry_id>",
        api.TeamUpdateApi.as_view(),
        name="team-update",
    ),
    path(
        f"{ENTRY}/refuse-pairing", api.EntryRefusePairingApi.as_view(), name="entry-refuse-pairing"
    ),
    path(
        "tournaments/<slug:slug>/players/import",
        api.PlayersImportApi.as_view(),
        name="players-import",
    ),
    path(f"{ENTRY}/check-in", api.EntryCheckInApi.as_view(), name="entry-check-in"),
    path(f"{ENTRY}/undo-check-in", api.EntryUndoCheckInApi.as_view(), name="entry-undo-check-in"),
    path(f"{ENTRY}/withdraw", api.EntryWithdrawApi.as_view(), name="entry-withdraw"),
]
