from django.contrib import admin

from scoring.models import (
    Deal,
    DealResult,
    IdempotencyRecord,
    ResultRevision,
    Ruling,
    StandingsSnapshot,
)


class DealResultInline(admin.TabularInline):
    model = DealResult
    extra = 0
    fields = ["side", "entry", "points", "went_out", "entered", "detail"]
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


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round_label", "status", "is_void", "is_flagged"]
    list_filter = ["table__round__tournament", "status", "is_void", "is_flagged"]
    inlines = [DealResultInline, ResultRevisionInline]
    list_select_related = ["table__round"]

    @admin.display(description="round")
    def round_label(self, deal: Deal) -> str:
        return str(deal.table.round)


@admin.register(DealResult)
class DealResultAdmin(admin.ModelAdmin):
    list_display = ["entry", "deal", "side", "went_out", "points"]
    list_filter = ["deal__table__round__tournament", "went_out"]
    search_fields = ["entry__player__name"]
    list_select_related = ["entry__player", "deal__table"]


@admin.register(ResultRevision)
class ResultRevisionAdmin(admin.ModelAdmin):
    list_display = ["deal", "version", "status", "entered_via", "entered_at", "confirmed_via"]
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
    raw_id_fields = ["deal", "table"]

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
