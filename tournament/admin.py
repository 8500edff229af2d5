from django.contrib import admin

from tournament.models import AuditEvent, Entry, Player, Round, StaffRole, Tournament


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0
    autocomplete_fields = ["user"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "seating_seed", "dealer_seed", "published_at", "locked_at"]
    readonly_fields = ["published_at", "locked_at"]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "starts_on",
        "ends_on",
        "venue",
        "status",
        "is_published",
        "rounds_planned",
    ]
    list_filter = ["status", "is_published"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    inlines = [RoundInline, StaffRoleInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "email", "created_at"]
    search_fields = ["name", "club", "email"]
    list_filter = ["club"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "status", "is_late_entry", "checked_in_at"]
    list_filter = ["tournament", "status", "is_late_entry"]
    search_fields = ["player__name", "player__club"]
    autocomplete_fields = ["player"]
    list_select_related = ["player", "tournament"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "published_at", "locked_at"]
    list_filter = ["tournament", "status"]
    list_select_related = ["tournament"]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament", "granted_at"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the audit log is a record, not something to edit."""

    list_display = ["at", "tournament", "actor", "action", "summary"]
    list_filter = ["tournament", "action"]
    search_fields = ["summary"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
