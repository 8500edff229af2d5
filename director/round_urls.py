from django.urls import path

from director import control_views, pin_views, reseat_views, stage_views
from director import round_views as views

ROUND = "director/<slug:slug>/rounds/<int:number>/"
TABLE = ROUND + "tables/<int:table>/"

urlpatterns = [
    path("rules/check", views.rule_check, name="rule-check"),
    path("director/<slug:slug>/rounds/", views.round_list, name="rounds"),
    path("director/<slug:slug>/rounds/add", views.round_add, name="round-add"),
    path("director/<slug:slug>/stages/", stage_views.stages_page, name="stages"),
    path(
        "director/<slug:slug>/stages/<int:number>/cut",
        stage_views.stage_cut_view,
        name="stage-cut",
    ),
    path(ROUND, views.round_page, name="round"),
    path(ROUND + "seat", views.round_seat_view, name="round-seat"),
    path(ROUND + "swap", views.seat_swap_view, name="seat-swap"),
    path(ROUND + "move", views.seat_move_view, name="seat-move"),
    path(ROUND + "seat-ruling", views.seat_ruling_view, name="seat-ruling"),
    path(ROUND + "pins", pin_views.pin_add_view, name="pin-add"),
    path(ROUND + "pins/<int:entry_id>/remove", pin_views.pin_remove_view, name="pin-remove"),
    path(
        ROUND + "tables/<int:table>/reissue-link",
        views.table_link_reissue_view,
        name="table-link-reissue",
    ),
    path(ROUND + "dashboard", views.dashboard, name="dashboard"),
    path(ROUND + "clock", control_views.round_clock, name="round-clock"),
    path(ROUND + "calls/<int:pk>/answer", control_views.call_answer, name="call-answer"),
    path(TABLE, control_views.director_table, name="director-table"),
    path(TABLE + "clock", control_views.table_clock, name="table-clock"),
    path(TABLE + "reseat", reseat_views.table_reseat_view, name="director-reseat"),
    path(TABLE + "time", control_views.table_time, name="table-time"),
    path(ROUND + "time", control_views.round_time, name="round-time"),
    path(TABLE + "sign-off", control_views.director_sign_off, name="director-sign-off"),
    path(
        TABLE + "deals/<int:game>/correct",
        control_views.director_correct,
        name="director-correct",
    ),
    path(
        TABLE + "deals/<int:game>/confirm",
        control_views.director_confirm,
        name="director-confirm",
    ),
    path(
        TABLE + "deals/<int:game>/clear-flag",
        control_views.director_clear_flag,
        name="director-clear-flag",
    ),
    # The older paths (`games`, Kalooki's word for a deal) answer the same.
    path(
        TABLE + "games/<int:game>/correct",
        control_views.director_correct,
        name="director-correct-games",
    ),
    path(
        TABLE + "games/<int:game>/confirm",
        control_views.director_confirm,
        name="director-confirm-games",
    ),
    path(
        TABLE + "games/<int:game>/clear-flag",
        control_views.director_clear_flag,
        name="director-clear-flag-games",
    ),
    *[
        path(ROUND + step, views.round_step, {"step": step}, name=f"round-{step}")
        for step in views.STEPS
    ],
    path("director/<slug:slug>/rulings/", views.ruling_list, name="rulings"),
    path(
        "director/<slug:slug>/rulings/<int:pk>/reverse",
        views.ruling_reverse_view,
        name="ruling-reverse",
    ),
    path(
        "director/<slug:slug>/players/reinstate/<int:entry_id>",
        views.entry_reinstate_view,
        name="entry-reinstate",
    ),
]
