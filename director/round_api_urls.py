from django.urls import path

from director import control_api as control
from director import pin_api, reseat_api, rules_api, stage_api
from director import round_api as api

ROUNDS = "tournaments/<slug:slug>/rounds"
ROUND = ROUNDS + "/<int:number>"
TABLE = ROUND + "/tables/<int:table>"
RULINGS = "tournaments/<slug:slug>/rulings"

urlpatterns = [
    path("games", rules_api.GameListApi.as_view(), name="games"),
    path("rules/meld", rules_api.MeldCheckApi.as_view(), name="rules-meld"),
    path("rules/contract", rules_api.ContractCheckApi.as_view(), name="rules-contract"),
    path("rules/tack-on", rules_api.TackOnCheckApi.as_view(), name="rules-tack-on"),
    path("rules/game", rules_api.GameCheckApi.as_view(), name="rules-game"),
    path(ROUNDS, api.RoundListApi.as_view(), name="api-rounds"),
    path(ROUND, api.RoundDetailApi.as_view(), name="api-round"),
    path(ROUND + "/seat", api.RoundSeatApi.as_view(), name="api-round-seat"),
    path(ROUND + "/swap", api.SeatSwapApi.as_view(), name="api-round-swap"),
    path(ROUND + "/move", api.SeatMoveApi.as_view(), name="api-round-move"),
    path(ROUND + "/seat-change", api.SeatChangeApi.as_view(), name="api-round-seat-change"),
    path(ROUND + "/publish", api.RoundPublishApi.as_view(), name="api-round-publish"),
    path(ROUND + "/unpublish", api.RoundUnpublishApi.as_view(), name="api-round-unpublish"),
    path(ROUND + "/start", api.RoundStartApi.as_view(), name="api-round-start"),
    path(ROUND + "/complete", api.RoundCompleteApi.as_view(), name="api-round-complete"),
    path(ROUND + "/reopen", api.RoundReopenApi.as_view(), name="api-round-reopen"),
    path(ROUND + "/lock", api.RoundLockApi.as_view(), name="api-round-lock"),
    path(ROUND + "/tables", api.RoundTablesApi.as_view(), name="api-round-tables"),
    path(TABLE + "/reseat", reseat_api.TableReseatApi.as_view(), name="api-table-reseat"),
    path(
        ROUND + "/tables/<int:table>/reissue-link",
        api.TableLinkReissueApi.as_view(),
        name="api-table-link-reissue",
    ),
    path(
        "tournaments/<slug:slug>/entries/<int:entry_id>/disqualify",
        api.EntryDisqualifyApi.as_view(),
        name="entry-disqualify",
    ),
    path(
        "tournaments/<slug:slug>/entries/<int:entry_id>/reinstate",
        api.EntryReinstateApi.as_view(),
        name="entry-reinstate",
    ),
    # the control room (director.control_api)
    path(ROUND + "/clock", control.RoundClockApi.as_view(), name="api-round-clock"),
    *[
        path(ROUND + f"/clock/{step}", view.as_view(), name=f"api-round-clock-{step}")
        for step, view in {
            "start": control.RoundClockStartApi,
            "pause": control.RoundClockPauseApi,
            "resume": control.RoundClockResumeApi,
            "extend": control.RoundClockExtendApi,
        }.items()
    ],
    *[
        path(TABLE + f"/clock/{step}", view.as_view(), name=f"api-table-clock-{step}")
        for step, view in {
            "pause": control.TableClockPauseApi,
            "resume": control.TableClockResumeApi,
            "extend": control.TableClockExtendApi,
        }.items()
    ],
    path(ROUND + "/calls", control.RoundCallsApi.as_view(), name="api-round-calls"),
    path(ROUND + "/calls/<int:pk>/answer", control.CallAnswerApi.as_view(), name="api-call-answer"),
    path(ROUND + "/time", control.RoundTimeApi.as_view(), name="api-round-time"),
    path(TABLE + "/time", control.TableTimeApi.as_view(), name="api-table-time"),
    path(
        TABLE + "/time/withdraw",
        control.TableTimeWithdrawApi.as_view(),
        name="api-table-time-withdraw",
    ),
    path(
        TABLE + "/deals/<int:game>/clear-flag",
        control.FlagClearApi.as_view(),
        name="api-table-clear-flag",
    ),
    path(
        TABLE + "/games/<int:game>/clear-flag",
        control.FlagClearGamesApi.as_view(),
        name="api-table-clear-flag-games",
    ),
    path("tournaments/<slug:slug>/pins", pin_api.PinListApi.as_view(), name="api-pins"),
    path(
        "tournaments/<slug:slug>/pins/<int:entry_id>",
        pin_api.PinDetailApi.as_view(),
        name="api-pin",
    ),
    path("tournaments/<slug:slug>/stages", stage_api.StagesApi.as_view(), name="api-stages"),
    path(
        "tournaments/<slug:slug>/stages/<int:number>/cut",
        stage_api.StageCutApi.as_view(),
        name="api-stage-cut",
    ),
    path(RULINGS, api.RulingListApi.as_view(), name="api-rulings"),
    path(RULINGS + "/<int:pk>/reverse", api.RulingReverseApi.as_view(), name="api-ruling-reverse"),
]
