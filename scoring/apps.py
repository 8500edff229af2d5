from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        """The standings show each player's status: a change of entries refreshes them."""
        from scoring.standings_queue import standings_changed
        from tournament.signals import entries_changed

        def refresh(sender: object, *, tournament_id: int, **kwargs: object) -> None:
            standings_changed(tournament_id)

        entries_changed.connect(refresh, weak=False, dispatch_uid="scoring.standings")
