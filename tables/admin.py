from django.contrib import admin

from tables.models import Seat, Table


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
