"""The hall's room: what the public sees, with no account.

The site's front page, a tournament's home, leaderboard, projector, seating board, player and
table pages with their live parts (`views`, `seating_views`, `selectors`), the standings API
and the CSV exports (`api`); the players' own phones: self check-in and each player's "my page"
(`phone`, `phone_views`, `phone_api`). Pages are reversed as "public:...". Everything shown is
read from the stored standings snapshots and results; the one write, a player's self check-in,
is the tournament app's service (`tournament.check_in`).

May import: the domain apps (`scoring`, `tables`, `tournament`) and `games`; never `director`
or `entry`.
"""
