"""The hall's room: what the public sees, with no account.

- `views`: the site's front page, a tournament's home, leaderboard, projector, player and table
  pages with their live parts and pulses; `seating_views`: the seating board.
- `selectors`: what those pages read, as frozen read models (the tournament's public facts, the
  standings, leaderboard rows, a table's and a player's deals), in a fixed number of queries.
- `responses`: how they answer: who may see a tournament (its preview), 304s from the
  snapshot's version, bodies drawn once per version and live parts kept for a second.
- `middleware`: the crowd's shortcut, the leaderboard answered right after WhiteNoise.
- `api`: the standings API and the CSV exports; `phone`, `phone_views`, `phone_api`: self
  check-in and each player's "my page"; `club_views`: a club's public pages.

Pages are reversed as "public:...". Everything shown is read from the stored standings snapshots
and results through the caches named in `config.caches`; the one write, a player's self
check-in, is the tournament app's service (`tournament.check_in`).

May import: the domain apps (`scoring`, `tables`, `tournament`) and `games`; never `director`
or `entry`.
"""
