"""The director's room: every page and API endpoint a tournament director uses.

Set-up and players (`tournament_views`, `tournament_forms`, `tournament_api`), the rounds with
their seating, dashboard and rulings, and Rule check (`round_views`, `round_forms`, `round_api`),
the control room's table page, clocks and calls (`control_views`), and printing (`print_views`).
Pages are reversed as "director:...". Each view parses input, calls one service or selector of
the domain apps and renders.

May import: the domain apps (`scoring`, `tables`, `tournament`) and `games`; never `scorekeeper` or
`hall` (the audience rooms stand side by side).
"""
