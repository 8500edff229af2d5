"""Signals of the tournament app, for the apps built on it.

`entries_changed` is sent, with `tournament_id`, after a player is entered or an entry's status
changes (checked in, withdrawn, disqualified, reinstated). The standings show each player's
status, so `scoring` refreshes them on it; this app cannot call `scoring` itself, since `scoring`
depends on it (see the import contracts in pyproject.toml).
"""

from django.dispatch import Signal

entries_changed = Signal()
# Sent, with `tournament_id`, when a tournament is finished or reopened: seasons count finished
# events only.
tournament_finished = Signal()
