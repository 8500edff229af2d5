from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and seating"

    def ready(self) -> None:
        # The seating module stays free of Django: its refusals read in the request's language
        # through this hook (`tables.seating.translate`).
        from django.utils.translation import gettext

        from tables import seating

        seating.translate = gettext
