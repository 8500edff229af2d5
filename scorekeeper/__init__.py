"""The scorekeeper's room: a table's private link, `/t/<token>/`, and the table API.

The phone page (`views`, drawn one line per seat by `compact`; offline and installable through
`pwa`: its service worker and manifest), the table API (`api`, `serializers`, `api_urls`), who
may use a table (`access`: the link, its scorekeepers, its directors) and the replay of retried
requests (`idempotency`). Pages are reversed as "scorekeeper:...". Results are written only through
`scoring.services`; the score sheet is read through `scoring.score_sheet`.

May import: the domain apps (`scoring`, `tables`, `tournament`) and `games`; never `director`
or `hall`.
"""
