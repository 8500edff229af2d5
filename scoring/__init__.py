"""Deals and results, rulings and standings, for any game; each game's rules live in games/."""
