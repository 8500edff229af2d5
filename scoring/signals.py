"""Signals of the scoring app, for the rooms built on it.

`results_settled` is sent, with `tournament_id`, when what an event's results say may have moved
for the rooms above: a new standings snapshot stored (a result, a correction, a ruling), or a
round locked. `seasons` recomputes its tables and ratings on it; `scoring` cannot call
`seasons`, which depends on it (the import contracts in pyproject.toml).
"""

from django.dispatch import Signal

results_settled = Signal()
