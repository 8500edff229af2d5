from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons and ratings"

    def ready(self) -> None:
        from seasons import triggers  # noqa: F401  (connects the receivers)
