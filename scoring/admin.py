from django.contrib import admin

from scoring.models import (
    Game,
    HandResult,
    IdempotencyRecord,
    ResultRevision,
    Ruling,
    StandingsSnapshot,
)


class HandResultInline(admin.TabularInline):
    model = HandResult
    extra = 0
    fields = [
        "entry",
        "went_out",
        "cards",
        "card_points",
        "doubled",
        "calls",
        "failed_come_downs",
        "overcall_penalty",
        "penalty_points",
        "total",
    ]
    autocomplete_fields = ["entry"]


class ResultRevisionInline(admin.TabularInline):
    """History is read-only here: corrections go through the scoring service or a ruling."""

    model = ResultRevision
    extra = 0
    can_delete = False
    fields = ["version", "status", "entered_via", "entered_at", "reason", "confirmed_via"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round_label", "status", "is_void", "down_and_out", "is_flagged"]
    list_filter = ["table__round__tournament", "status", "is_void", "is_flagged", "down_and_out"]
    inlines = [HandResultInline, ResultRevisionInline]
    list_select_related = ["table__round"]

    @admin.display(description="round")
    def round_label(self, game: Game) -> str:
        return str(game.table.round)


@admin.register(HandResult)
class HandResultAdmin(admin.ModelAdmin):
    list_display = [
        "entry",
        "game",
        "went_out",
        "card_points",
        "doubled",
        "penalty_points",
        "total",
    ]
    list_filter = ["game__table__round__tournament", "went_out", "doubled"]
    search_fields = ["entry__player__name"]
    list_select_related = ["entry__player", "game__table"]


@admin.register(ResultRevision)
class ResultRevisionAdmin(admin.ModelAdmin):
    list_display = ["game", "version", "status", "entered_via", "entered_at", "confirmed_via"]
    list_filter = ["status"]
    readonly_fields = [field.name for field in ResultRevision._meta.fields]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ["decided_at", "tournament", "kind", "entry", "points", "decided_by"]
    list_filter = ["tournament", "kind"]
    search_fields = ["decision", "reason", "entry__player__name"]
    autocomplete_fields = ["entry", "reverses"]
    raw_id_fields = ["game", "table"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # R12.4: rulings are never deleted; a reversal is a new ruling


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "version", "computed_at", "source_stamp"]
    list_filter = ["tournament"]
    readonly_fields = [
        "tournament",
        "version",
        "computed_at",
        "source_stamp",
        "last_ruling_id",
        "data",
    ]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["key", "table", "status_code", "created_at"]
    readonly_fields = ["table", "key", "fingerprint", "status_code", "response", "created_at"]
