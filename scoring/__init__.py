"""Deals and results, rulings and standings, for any game; each game's rules live in games/.

The services (`services`, `rulings`, `rounds`) write through one store (`scoring.store`): the
ORM's on SQLite, PostgreSQL's own (fewer round trips) on PostgreSQL; neither the services nor
anything above them asks which database it runs on. May import `tables`, `tournament`, `games`.
"""
