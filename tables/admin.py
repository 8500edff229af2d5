from django.contrib import admin

from tables.models import PinnedSeat, Seat, SeatingRecord, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "entry", "is_first_dealer"]
    autocomplete_fields = ["entry"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "tournament", "seat_count", "signed_off_at"]
    list_filter = ["round__tournament", "round__number"]
    readonly_fields = ["token_issued_at"]
    filter_horizontal = ["scorekeepers"]
    inlines = [SeatInline]
    list_select_related = ["round__tournament"]

    @admin.display(ordering="round__tournament")
    def tournament(self, table: Table) -> str:
        return str(table.round.tournament)

    @admin.display(description="seats")
    def seat_count(self, table: Table) -> int:
        return table.seats.count()


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["__str__", "entry", "round", "is_first_dealer"]
    list_filter = ["round__tournament", "round__number"]
    autocomplete_fields = ["entry"]
    list_select_related = ["table", "entry__player", "round"]


@admin.register(SeatingRecord)
class SeatingRecordAdmin(admin.ModelAdmin):
    list_display = ["__str__", "mode"]
    list_filter = ["mode", "round__tournament"]
    list_select_related = ["round__tournament"]
    readonly_fields = ["round", "mode", "standing", "ratings", "pins", "design"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # written by the seating service, with the round's seeds


@admin.register(PinnedSeat)
class PinnedSeatAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "table", "position", "reason"]
    list_filter = ["tournament"]
    list_select_related = ["entry__player", "tournament"]
    readonly_fields = ["tournament", "entry", "table", "position", "created_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # pinned on the round page or by the API, which check the tables
